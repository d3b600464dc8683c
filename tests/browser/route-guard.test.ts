import { hashPassword } from '@locus/db';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  newPage,
  signInWithForm,
  startAuthEnvironment,
  storedToken,
  type AuthEnvironment,
} from './auth-support';
import { expectAccessible } from '../support/browser';

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

function url(path: string): string {
  return `${env.api.url}${path}`;
}

/** Opens `path` with a full page load and waits to be sent to `expected`. */
async function expectRedirect(page: Page, path: string, expected: string) {
  await page.goto(url(path));
  await page.waitForURL(url(expected));
}

async function menuItems(page: Page, userName: RegExp): Promise<string[]> {
  await page.getByRole('button', { name: userName }).click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  const items = (await menu.getByRole('menuitem').allTextContents()).map((text) => text.trim());
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'hidden' });
  return items;
}

async function sidebar(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Admin sections' });
  await nav.waitFor();
  return (await nav.getByRole('link').allTextContents()).map((text) => text.trim());
}

describe('anonymous visitors', { timeout: 60_000 }, () => {
  it('are sent to the site from every protected route', async () => {
    const { page, context } = await newPage(env.browser);
    for (const path of [
      '/dashboard',
      '/admin',
      '/admin/users',
      '/admin/dev',
      '/overwatch',
      '/training',
      '/uscg/approval',
      '/register/complete-uscg',
    ]) {
      await expectRedirect(page, path, '/');
    }
    await context.close();
  });

  it('may open the public and account pages', async () => {
    const { page, context } = await newPage(env.browser);
    for (const [path, heading] of [
      ['/auth/sign-in', 'Sign In'],
      ['/auth/forgot-password', 'Forgot your password?'],
      ['/register/email-confirmation/resend', 'Resend the confirmation email'],
    ] as const) {
      await page.goto(url(path));
      await page.getByRole('heading', { name: heading }).waitFor();
      expect(page.url()).toBe(url(path));
      await expectAccessible(page, path);
    }
    await context.close();
  });

  it('always pass through sign-out, which ends on sign-in', async () => {
    const { page, context } = await newPage(env.browser);
    await expectRedirect(page, '/auth/sign-out', '/auth/sign-in');
    await context.close();
  });
});

describe('signed-in users', { timeout: 60_000 }, () => {
  it('visiting home or any auth route go to the dashboard', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'dispatcher@demo-county.test');
    for (const path of [
      '/',
      '/auth/sign-in',
      '/auth/forgot-password',
      '/auth/forgot-password/sent',
    ]) {
      await expectRedirect(page, path, '/dashboard');
    }
    await context.close();
  });

  it('with an expired token in local storage are logged out and sent to the site', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'dispatcher@demo-county.test');
    // The app stores the whole session whenever a refresh of the user arrives, which would write
    // the real expiry back over ours: edit it from a page of the same origin without the app.
    await page.goto(`${env.api.url}/map-tiles/blank.png`);
    await page.evaluate(() =>
      localStorage.setItem('locus.tokenExpiresAt', String(Math.floor(Date.now() / 1000) - 1)),
    );
    await expectRedirect(page, '/training', '/');
    expect(await storedToken(page)).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem('locus.user'))).toBeNull();
    await context.close();
  });

  it('whose session the API calls expired (401 session-expired) are logged out and sent to the site', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'dispatcher2@demo-county.test');
    await env.database.db
      .updateTable('auth_sessions')
      .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
      .where('user_id', '=', (eb) =>
        eb
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'dispatcher2@demo-county.test')
          .limit(1),
      )
      .execute();
    // Whichever call the reloaded page makes first (the user's refresh, the dashboard's own
    // reads) meets the expired session and logs out; the others are then never sent, so the
    // test reads the first 401 from any API route, not one route's. Read as it passes through
    // (a route), not from the page's response afterwards: the logout navigates away at once, and
    // the browser then drops the body (it failed that way once on a loaded machine).
    const firstRefusal = new Promise<string>((resolve, reject) => {
      void page.route('**/api/v1/**', async (route) => {
        // Several calls may meet the expired session at once. The first 401 passed on logs the
        // page out and navigates away, which cancels the others still held here: their
        // responses are disposed under us. That is the app working, not a failure; the first
        // refusal has already been read by then (it is read before it is passed on).
        try {
          const response = await route.fetch();
          if (response.status() === 401)
            resolve(((await response.json()) as { error: string }).error);
          await route.fulfill({ response });
        } catch (error) {
          // Anything else fails the test through the promise it awaits, not as an unhandled
          // rejection in Playwright's route handler.
          if (!/disposed|closed/i.test(String(error))) reject(error);
        }
      });
    });
    // The local expiry is still in the future: only the API knows.
    await page.reload();
    expect(await firstRefusal).toBe('session-expired');
    await page.waitForURL(url('/'));
    expect(await storedToken(page)).toBeNull();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();
  });

  it('whose token was revoked elsewhere are logged out on the next call', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'dispatcher@neighbour-county.test');
    const token = await storedToken(page);
    const revoked = await fetch(url('/api/v1/auth/sign-out'), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(revoked.status).toBe(204);
    await page.reload();
    await page.waitForURL(url('/'));
    expect(await storedToken(page)).toBeNull();
    await context.close();
  });
});

describe('roles and levels', { timeout: 60_000 }, () => {
  it('keep a dispatcher out of the admin routes and Overwatch', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'dispatcher@demo-county.test');
    for (const path of ['/admin', '/admin/users', '/admin/teams', '/admin/dev', '/overwatch']) {
      await expectRedirect(page, path, '/dashboard');
    }
    await context.close();
  });

  it('give the basic-level dispatcher of Neighbouring County neither Admin nor Overwatch', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'dispatcher@neighbour-county.test');
    expect(await menuItems(page, /Nico Neighbour/)).toEqual([
      'Profile',
      'Back to Map',
      'Training Videos',
      'FAQ',
      'Sign Out',
    ]);
    await page.goto(url('/training'));
    expect(await menuItems(page, /Nico Neighbour/)).toEqual([
      'Back to Map',
      'Change Email',
      'Contact Support',
      'Sign Out',
    ]);
    await context.close();
  });

  it('give a premiere and enterprise team admin Admin, Overwatch and their sidebar, without the platform sections', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    expect(await menuItems(page, /Terry Admin.*user menu/)).toEqual([
      'Profile',
      'Back to Map',
      'Admin',
      'Overwatch',
      'Training Videos',
      'FAQ',
      'Sign Out',
    ]);
    await page.getByRole('button', { name: /Terry Admin.*user menu/ }).click();
    await page.getByRole('menuitem', { name: 'Admin' }).click();
    await page.waitForURL(url('/admin'));
    expect(await sidebar(page)).toEqual([
      'USERS',
      'TEAMS',
      'SESSIONS',
      'API',
      'TEAM | USER METRICS',
      'OVERWATCH',
      'AUDIT',
    ]);
    await page.getByTestId('company-name').filter({ hasText: 'Demo County 911' }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await expectAccessible(page, '/admin for a team admin');
    expect(await menuItems(page, /Terry Admin.*user menu/)).toEqual([
      'Back to Map',
      'Overwatch',
      'Training Videos',
      'Sign Out',
    ]);
    await page.screenshot({ path: '/tmp/locus-admin-team-admin.png' });
    for (const path of ['/admin/dev', '/admin/verification/edit', '/admin/platform-metrics']) {
      await expectRedirect(page, path, '/admin');
    }
    await page.goto(url('/overwatch'));
    await page.getByRole('heading', { name: 'Overwatch' }).waitFor();
    expect(page.url()).toBe(url('/overwatch'));
    await expectAccessible(page, '/overwatch');
    await context.close();
  });

  it('show VERIFICATION, PLATFORM METRICS and DEV only to the platform owner, whose DEV page links the queue board', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'owner@locus.test');
    await page.goto(url('/admin'));
    expect(await sidebar(page)).toEqual([
      'USERS',
      'VERIFICATION',
      'TEAMS',
      'SESSIONS',
      'API',
      'TEAM | USER METRICS',
      'PLATFORM METRICS',
      'OVERWATCH',
      'DEV',
      'AUDIT',
    ]);
    await page.getByRole('link', { name: 'DEV' }).click();
    await page.waitForURL(url('/admin/dev'));
    const board = page.getByRole('link', { name: 'Queue board' });
    expect(await board.getAttribute('href')).toBe('/admin/queues');
    await expectAccessible(page, '/admin/dev');
    await page.screenshot({ path: '/tmp/locus-admin-dev.png' });
    await context.close();
  });

  it('hide the admin sections of levels a team lacks', async () => {
    // A team admin of the basic-level team: no API, metrics or Overwatch.
    await env.database.db
      .updateTable('team_members')
      .set({ role: 'admin' })
      .where('user_id', '=', (eb) =>
        eb
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'dispatcher@neighbour-county.test')
          .limit(1),
      )
      .execute();
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'dispatcher@neighbour-county.test');
    await page.goto(url('/admin'));
    expect(await sidebar(page)).toEqual(['USERS', 'TEAMS', 'SESSIONS', 'AUDIT']);
    for (const path of ['/admin/metrics', '/admin/admin-api', '/admin/overwatch']) {
      await expectRedirect(page, path, '/admin');
    }
    await expectRedirect(page, '/overwatch', '/dashboard');
    await context.close();
  });
});

describe('coast-guard users without an active team', { timeout: 60_000 }, () => {
  it('are sent to the coast-guard registration from every page but sign-out', async () => {
    await env.database.db
      .insertInto('users')
      .values({
        first_name: 'Pat',
        last_name: 'Petty',
        email: 'pat.petty@uscg.mil',
        email_confirmed_at: new Date(),
        password_hash: await hashPassword(DEMO_PASSWORD),
      })
      .execute();
    const { page, context } = await newPage(env.browser);
    await page.goto(url('/auth/sign-in'));
    await page.getByLabel('Email').fill('pat.petty@uscg.mil');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(url('/register/complete-uscg'));
    await page.getByLabel('Unit name').waitFor();
    await expectAccessible(page, '/register/complete-uscg');
    for (const path of ['/dashboard', '/training', '/', '/auth/sign-in', '/uscg/approval']) {
      await expectRedirect(page, path, '/register/complete-uscg');
    }
    await expectRedirect(page, '/auth/sign-out', '/auth/sign-in');
    await context.close();
  });
});

describe('/uscg/approval', { timeout: 60_000 }, () => {
  it('explains itself to users who are not a coast-guard team admin', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    await page.goto(url('/uscg/approval'));
    await page
      .getByText('Coast Guard users are approved by the team admins of a Coast Guard team')
      .waitFor();
    await expectAccessible(page, '/uscg/approval, not a coast-guard admin');
    expect(await page.getByRole('button', { name: /^Approve/ }).count()).toBe(0);
    await context.close();
  });
});
