import type { ReactNode } from 'react';
import { useAuthModals } from '../auth/AuthModals';
import { lazyPage } from './lazy-page';
import type { RouteMeta } from './route-meta';

/*
 * Every page is its own chunk, downloaded when its route first renders (after the route guard
 * has let it through): the landing page does not download the console, the dashboard does not
 * download the public site. A module with several pages is one chunk.
 */

const LandingPage = lazyPage(
  () => import('../public-site/LandingPage'),
  (module) => module.LandingPage,
);
const AboutPage = lazyPage(
  () => import('../public-site/AboutPage'),
  (module) => module.AboutPage,
);

const SignInPage = lazyPage(
  () => import('../auth/pages/SignInPage'),
  (module) => module.SignInPage,
);
const SignOutPage = lazyPage(
  () => import('../auth/pages/SignOutPage'),
  (module) => module.SignOutPage,
);
const forgotPasswordPages = () => import('../auth/pages/ForgotPasswordPages');
const ForgotPasswordPage = lazyPage(forgotPasswordPages, (module) => module.ForgotPasswordPage);
const ForgotPasswordSentPage = lazyPage(
  forgotPasswordPages,
  (module) => module.ForgotPasswordSentPage,
);
const ResetPasswordPage = lazyPage(forgotPasswordPages, (module) => module.ResetPasswordPage);
const ResetPasswordSuccessPage = lazyPage(
  forgotPasswordPages,
  (module) => module.ResetPasswordSuccessPage,
);
const AcceptInvitationPage = lazyPage(
  () => import('../auth/pages/AcceptInvitationPage'),
  (module) => module.AcceptInvitationPage,
);
const emailConfirmationPages = () => import('../auth/pages/EmailConfirmationPages');
const EmailConfirmationPage = lazyPage(
  emailConfirmationPages,
  (module) => module.EmailConfirmationPage,
);
const ResendConfirmationPage = lazyPage(
  emailConfirmationPages,
  (module) => module.ResendConfirmationPage,
);
const ConfirmationEmailSentPage = lazyPage(
  emailConfirmationPages,
  (module) => module.ConfirmationEmailSentPage,
);
const coastGuardPages = () => import('../auth/pages/CoastGuardPages');
const CompleteUscgPage = lazyPage(coastGuardPages, (module) => module.CompleteUscgPage);
const UscgApprovalPage = lazyPage(coastGuardPages, (module) => module.UscgApprovalPage);

const DashboardPage = lazyPage(
  () => import('../dashboard/DashboardPage'),
  (module) => module.DashboardPage,
);

const UsersPage = lazyPage(
  () => import('../admin/users/UsersPage'),
  (module) => module.UsersPage,
);

const teamsPages = () => import('../admin/teams/TeamsPage');
const TeamsPage = lazyPage(teamsPages, (module) => module.TeamsPage);
const TeamEditPage = lazyPage(teamsPages, (module) => module.TeamEditPage);
const AdminApiPage = lazyPage(
  () => import('../admin/api/AdminApiPage'),
  (module) => module.AdminApiPage,
);

const VerificationPage = lazyPage(
  () => import('../admin/verification/VerificationPage'),
  (module) => module.VerificationPage,
);
const sessionPages = () => import('../admin/sessions/SessionPages');
const SessionListPage = lazyPage(sessionPages, (module) => module.SessionListPage);
const SessionDetailPage = lazyPage(sessionPages, (module) => module.SessionDetailPage);
const AuditPage = lazyPage(
  () => import('../admin/audit/AuditPage'),
  (module) => module.AuditPage,
);

const AdminDevPage = lazyPage(
  () => import('../admin/dev/DevPage'),
  (module) => module.AdminDevPage,
);

// The metrics screens share their charts (and Recharts) in one chunk.
const metricsPages = () => import('../admin/metrics/MetricsPages');
const MetricsPage = lazyPage(metricsPages, (module) => module.MetricsPage);
const TeamMetricsPage = lazyPage(metricsPages, (module) => module.TeamMetricsPage);
const PlatformMetricsPage = lazyPage(metricsPages, (module) => module.PlatformMetricsPage);

const OverwatchGroupsPage = lazyPage(
  () => import('../admin/overwatch/OverwatchGroupsPage'),
  (module) => module.OverwatchGroupsPage,
);
// Its own chunk: the list does not download the form's map (Leaflet).
const OverwatchGroupEditPage = lazyPage(
  () => import('../admin/overwatch/OverwatchGroupEditPage'),
  (module) => module.OverwatchGroupEditPage,
);

const OverwatchPage = lazyPage(
  () => import('../overwatch/OverwatchPage'),
  (module) => module.OverwatchPage,
);

const TrainingPage = lazyPage(
  () => import('../training/TrainingPage'),
  (module) => module.TrainingPage,
);

const NotFoundPage = lazyPage(
  () => import('./NotFoundPage'),
  (module) => module.NotFoundPage,
);

/** The public pages open the shell's Sign In and Create Account modals. */
function Landing() {
  const modals = useAuthModals();
  return <LandingPage onSignIn={modals.openSignIn} onSignUp={modals.openCreateAccount} />;
}

function About() {
  const modals = useAuthModals();
  return <AboutPage onSignIn={modals.openSignIn} onSignUp={modals.openCreateAccount} />;
}

export interface AppRoute {
  path: string;
  meta: RouteMeta;
  element: ReactNode;
}

const admin = { access: 'admin', layout: 'admin' } as const;

/** Every route of SPEC.md §2, with its name, access and layout. */
export const appRoutes: AppRoute[] = [
  {
    path: '/',
    meta: {
      name: 'home',
      title: 'Locus: caller location for emergency services',
      access: 'public',
      layout: null,
    },
    element: <Landing />,
  },
  {
    path: '/about',
    meta: { name: 'about', title: 'About Locus', access: 'public', layout: null },
    element: <About />,
  },

  {
    path: '/auth/sign-in',
    meta: { name: 'auth-sign-in', title: 'Sign In', access: 'public' },
    element: <SignInPage />,
  },
  {
    path: '/auth/sign-out',
    meta: { name: 'auth-sign-out', title: 'Signing out', access: 'always' },
    element: <SignOutPage />,
  },
  {
    path: '/auth/forgot-password',
    meta: { name: 'auth-forgot-password', title: 'Forgot password', access: 'public' },
    element: <ForgotPasswordPage />,
  },
  {
    path: '/auth/forgot-password/sent',
    meta: { name: 'auth-forgot-password-sent', title: 'Check your email', access: 'public' },
    element: <ForgotPasswordSentPage />,
  },
  {
    path: '/auth/forgot-password/reset',
    meta: { name: 'auth-forgot-password-reset', title: 'Choose a new password', access: 'public' },
    element: <ResetPasswordPage />,
  },
  {
    path: '/auth/forgot-password/success',
    meta: { name: 'auth-forgot-password-success', title: 'Password changed', access: 'public' },
    element: <ResetPasswordSuccessPage />,
  },

  {
    path: '/auth/accept-invitation',
    meta: { name: 'auth-accept-invitation', title: 'Join a team', access: 'always' },
    element: <AcceptInvitationPage />,
  },

  {
    path: '/register/email-confirmation',
    meta: { name: 'register-email-confirmation', title: 'Confirm your email', access: 'public' },
    element: <EmailConfirmationPage />,
  },
  {
    path: '/register/email-confirmation/resend',
    meta: {
      name: 'register-email-confirmation-resend',
      title: 'Resend confirmation',
      access: 'public',
    },
    element: <ResendConfirmationPage />,
  },
  {
    path: '/register/email-confirmation/email-sent',
    meta: {
      name: 'register-email-confirmation-email-sent',
      title: 'Check your email',
      access: 'public',
    },
    element: <ConfirmationEmailSentPage />,
  },
  {
    path: '/register/complete-uscg',
    meta: { name: 'register-complete-uscg', title: 'Coast Guard registration', access: 'login' },
    element: <CompleteUscgPage />,
  },

  {
    path: '/dashboard',
    meta: {
      name: 'dashboard',
      title: 'Dashboard',
      access: 'login',
      layout: 'map',
      chatbotHidden: true,
    },
    element: <DashboardPage />,
  },

  {
    path: '/admin',
    meta: { name: 'admin', title: 'Admin: users', ...admin },
    element: <UsersPage />,
  },
  {
    path: '/admin/users',
    meta: { name: 'admin-users', title: 'Admin: users', ...admin },
    element: <UsersPage />,
  },
  {
    path: '/admin/teams',
    meta: { name: 'admin-teams', title: 'Admin: teams', ...admin },
    element: <TeamsPage />,
  },
  {
    path: '/admin/teams/:id/edit',
    meta: { name: 'admin-teams-edit', title: 'Admin: edit team', ...admin },
    element: <TeamEditPage />,
  },
  {
    path: '/admin/overwatch',
    meta: { name: 'admin-overwatch', title: 'Admin: Overwatch', ...admin, requires: ['premiere'] },
    element: <OverwatchGroupsPage />,
  },
  {
    path: '/admin/overwatch/:id/edit',
    meta: {
      name: 'admin-overwatch-edit',
      title: 'Admin: edit Overwatch',
      ...admin,
      requires: ['premiere'],
    },
    element: <OverwatchGroupEditPage />,
  },
  {
    path: '/admin/admin-api',
    meta: { name: 'admin-api', title: 'Admin: API', ...admin, requires: ['enterprise'] },
    element: <AdminApiPage />,
  },
  {
    path: '/admin/metrics',
    meta: { name: 'admin-metrics', title: 'Admin: metrics', ...admin, requires: ['metrics'] },
    element: <MetricsPage />,
  },
  {
    path: '/admin/metrics/:id',
    meta: {
      name: 'admin-team-metrics',
      title: 'Admin: team metrics',
      ...admin,
      requires: ['metrics'],
    },
    element: <TeamMetricsPage />,
  },
  {
    path: '/admin/verification/edit',
    meta: {
      name: 'admin-verification',
      title: 'Admin: verification',
      ...admin,
      requires: ['platform-owner'],
    },
    element: <VerificationPage />,
  },
  {
    path: '/admin/sessions',
    meta: { name: 'admin-sessions', title: 'Admin: sessions', ...admin },
    element: <SessionListPage />,
  },
  {
    path: '/admin/sessions/:teamId/:id',
    meta: { name: 'admin-session', title: 'Admin: session', ...admin },
    element: <SessionDetailPage />,
  },
  {
    path: '/admin/audit',
    meta: { name: 'admin-audit', title: 'Admin: audit trail', ...admin },
    element: <AuditPage />,
  },
  {
    path: '/admin/dev',
    meta: { name: 'admin-dev', title: 'Admin: dev', ...admin, requires: ['platform-owner'] },
    element: <AdminDevPage />,
  },
  {
    path: '/admin/platform-metrics',
    meta: {
      name: 'admin-platform-metrics',
      title: 'Admin: platform metrics',
      ...admin,
      requires: ['platform-owner'],
    },
    element: <PlatformMetricsPage />,
  },

  {
    path: '/overwatch',
    meta: {
      name: 'overwatch',
      title: 'Overwatch',
      access: 'admin',
      layout: 'overwatch',
      chatbotHidden: true,
      requires: ['premiere'],
    },
    element: <OverwatchPage />,
  },
  {
    path: '/uscg/approval',
    meta: { name: 'uscg-approval', title: 'Coast Guard approvals', access: 'login' },
    element: <UscgApprovalPage />,
  },
  {
    path: '/training',
    meta: { name: 'training', title: 'Training', access: 'login', layout: 'training' },
    element: <TrainingPage />,
  },
  {
    path: '*',
    meta: { name: 'not-found', title: 'Page not found', access: 'public' },
    element: <NotFoundPage />,
  },
];
