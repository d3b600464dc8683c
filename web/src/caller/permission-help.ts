import type { PermissionSteps } from '@locus/contract';

/** Which set of "turn location back on" steps fits the browser in the caller's hand. */
export type BrowserFamily = keyof PermissionSteps;

/** iOS browsers that are not Safari (each has its own entry in Location Services), and in-app views. */
const notSafari =
  /CriOS|FxiOS|EdgiOS|OPiOS|OPT\/|YaBrowser|DuckDuckGo|GSA\/|FBAN|FBAV|Instagram|Line\//;
/** Android browsers that carry "Chrome/" in their user agent but have other menus. */
const notChrome =
  /; wv\)|EdgA|OPR\/|SamsungBrowser|Firefox|UCBrowser|YaBrowser|MiuiBrowser|HuaweiBrowser|DuckDuckGo|Silk\//;

/**
 * Safari on an iPhone or iPad, Chrome on Android, or anything else. iPadOS reports itself as a
 * Mac; a touch screen tells them apart.
 */
export function browserFamily(userAgent: string, maxTouchPoints = 0): BrowserFamily {
  const apple =
    /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
  if (apple) return /Safari\//.test(userAgent) && !notSafari.test(userAgent) ? 'ios' : 'other';
  if (/Android/.test(userAgent) && /Chrome\/\d/.test(userAgent) && !notChrome.test(userAgent)) {
    return 'android';
  }
  return 'other';
}

/** The steps for this browser, from the page's language. */
export function permissionSteps(steps: PermissionSteps): readonly string[] {
  return steps[browserFamily(navigator.userAgent, navigator.maxTouchPoints)];
}
