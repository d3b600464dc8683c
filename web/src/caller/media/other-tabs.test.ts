import { afterEach, describe, expect, it, vi } from 'vitest';
import { OtherTabs } from './other-tabs';

const opened: OtherTabs[] = [];
const tab = (name: string, open: readonly string[] = []) => {
  const tabs = new OtherTabs(name, (videoId) => open.includes(videoId));
  opened.push(tabs);
  return tabs;
};

afterEach(() => {
  for (const tabs of opened.splice(0)) tabs.close();
  vi.unstubAllGlobals();
});

describe('OtherTabs', () => {
  it('hears from the tab that has the camera open, and only about that camera and link', async () => {
    tab('locus.video.link-a', ['camera-1']);
    tab('locus.video.link-b', ['camera-2']);
    const copy = tab('locus.video.link-a');
    expect(await copy.hasElsewhere('camera-1')).toBe(true);
    expect(await copy.hasElsewhere('camera-2', 100)).toBe(false);
  });

  it('answers no once closed', async () => {
    tab('locus.video.link-c', ['camera-3']);
    const copy = tab('locus.video.link-c');
    copy.close();
    expect(await copy.hasElsewhere('camera-3')).toBe(false);
  });

  it('does without BroadcastChannel where the browser refuses it', async () => {
    // Firefox with cookies blocked throws SecurityError from the constructor: the caller's page
    // must still load, and a reload is then reported as if no tab answered.
    vi.stubGlobal(
      'BroadcastChannel',
      class {
        constructor() {
          throw new DOMException('The operation is insecure.', 'SecurityError');
        }
      },
    );
    const tabs = tab('locus.video.link-d');
    expect(await tabs.hasElsewhere('camera-4')).toBe(false);
  });
});
