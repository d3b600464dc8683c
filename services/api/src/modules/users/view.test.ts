import { describe, expect, it } from 'vitest';
import { toCurrentUser, toTeam, type MembershipRow, type UserRow } from './view';

const user: UserRow = {
  id: '6f1c1f4e-9d7a-4a59-8b55-3c1f6f0d2a11',
  first_name: 'Dana',
  last_name: 'Dispatcher',
  email: 'dana@county.test',
  phone_number: null,
  psap_id: 4,
  company_name: 'What I typed',
  is_admin: false,
  has_seen_walkthrough: false,
  email_confirmed_at: new Date(),
  uscg_status: null,
  registration_completed_at: null,
  created_at: new Date(),
  color_scheme: 'dark',
};

function team(overrides: Partial<MembershipRow>): MembershipRow {
  return {
    team_id: 'a3e4f1c2-1b2c-4d5e-8f90-123456789abc',
    team_name: 'County 911',
    is_active: true,
    is_platform_owner: false,
    is_coast_guard: false,
    permission_levels: ['premiere'],
    custom_content: { links: { header: [], headerDropdown: [] } },
    role: 'member',
    ...overrides,
  };
}

describe('the current user', () => {
  it('takes the company name from the first active team', () => {
    const view = toCurrentUser(user, [
      team({ team_name: 'Inactive', is_active: false }),
      team({ team_name: 'Active one' }),
      team({ team_name: 'Active two' }),
    ]);
    expect(view.companyName).toBe('Active one');
  });

  it('falls back to the agency name the user typed', () => {
    expect(toCurrentUser(user, []).companyName).toBe('What I typed');
    expect(toCurrentUser(user, [team({ is_active: false })]).companyName).toBe('What I typed');
  });

  it('is a team admin when admin of any team', () => {
    expect(toCurrentUser(user, [team({})]).isTeamAdmin).toBe(false);
    expect(toCurrentUser(user, [team({}), team({ role: 'admin' })]).isTeamAdmin).toBe(true);
  });

  it('reports registration and coast-guard approval', () => {
    expect(toCurrentUser(user, []).registrationComplete).toBe(false);
    const done = toCurrentUser(
      { ...user, registration_completed_at: new Date(), uscg_status: 'pending' },
      [],
    );
    expect(done.registrationComplete).toBe(true);
    expect(done.uscgApproval).toBe('pending');
  });

  it("carries the user's colour scheme", () => {
    expect(toCurrentUser(user, []).colorScheme).toBe('dark');
    expect(toCurrentUser({ ...user, color_scheme: 'auto' }, []).colorScheme).toBe('auto');
  });
});

describe('a team', () => {
  it('drops unknown permission levels and malformed custom content', () => {
    const view = toTeam(
      team({ permission_levels: ['premiere', 'gold'], custom_content: { x: 1 } }),
    );
    expect(view.permissionLevels).toEqual(['premiere']);
    expect(view.customContent).toEqual({ links: { header: [], headerDropdown: [] } });
  });
});
