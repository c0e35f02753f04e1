import { createBrowserRouter, Navigate } from 'react-router';
import { AuthRoot } from '../features/auth/components/AuthRoot';
import { RequireSession } from '../features/auth/components/RequireSession';
import { Layout } from './Layout';
import { RouteError } from './RouteError';

// Every screen is its own chunk; the dashboard's is small, the monitor page brings uPlot, and
// the sign-in and settings screens bring the contract's schemas.
export const router = createBrowserRouter([
  {
    element: <AuthRoot />,
    errorElement: <RouteError />,
    HydrateFallback: () => null,
    children: [
      { path: 'setup', lazy: () => import('./routes/setup') },
      { path: 'login', lazy: () => import('./routes/login') },
      // A second factor the policy requires, before the app (ADR 51).
      { path: 'enrol', lazy: () => import('./routes/enrol') },
      // Reached from links in mail (ADR 34); the token follows `#`.
      { path: 'forgot-password', lazy: () => import('./routes/forgot-password') },
      { path: 'reset-password', lazy: () => import('./routes/reset-password') },
      { path: 'invitation', lazy: () => import('./routes/invitation') },
      { path: 'confirm-email', lazy: () => import('./routes/confirm-email') },
      {
        element: (
          <RequireSession>
            <Layout />
          </RequireSession>
        ),
        children: [
          { index: true, lazy: () => import('./routes/dashboard') },
          { path: 'monitors/new', lazy: () => import('./routes/monitor-new') },
          { path: 'monitors/:id', lazy: () => import('./routes/monitor') },
          { path: 'monitors/:id/edit', lazy: () => import('./routes/monitor-edit') },
          { path: 'monitors/:id/clone', lazy: () => import('./routes/monitor-clone') },
          { path: 'incidents', lazy: () => import('./routes/incidents') },
          { path: 'incidents/:id', lazy: () => import('./routes/incident') },
          { path: 'maintenance', lazy: () => import('./routes/maintenance') },
          { path: 'slos', lazy: () => import('./routes/slos') },
          { path: 'reports', lazy: () => import('./routes/reports') },
          { path: 'reports/delivery', lazy: () => import('./routes/report-delivery') },
          { path: 'status-pages', lazy: () => import('./routes/status-pages') },
          { path: 'status-pages/new', lazy: () => import('./routes/status-page-new') },
          { path: 'status-pages/:id/edit', lazy: () => import('./routes/status-page-edit') },
          { path: 'notifications', lazy: () => import('./routes/notifications') },
          {
            path: 'notifications/deliveries',
            lazy: () => import('./routes/notifications-deliveries'),
          },
          { path: 'notifications/oncall', lazy: () => import('./routes/notifications-oncall') },
          {
            path: 'notifications/escalation',
            lazy: () => import('./routes/notifications-escalation'),
          },
          { path: 'notifications/new', lazy: () => import('./routes/notification-new') },
          { path: 'notifications/:id', lazy: () => import('./routes/notification-edit') },
          {
            path: 'settings',
            lazy: () => import('./routes/settings'),
            children: [
              { index: true, element: <Navigate to="account" replace /> },
              { path: 'account', lazy: () => import('./routes/settings-account') },
              { path: 'users', lazy: () => import('./routes/settings-users') },
              { path: 'api-keys', lazy: () => import('./routes/settings-api-keys') },
              { path: 'audit', lazy: () => import('./routes/settings-audit') },
              { path: 'backups', lazy: () => import('./routes/settings-backups') },
              { path: 'import', lazy: () => import('./routes/settings-import') },
              { path: 'export', lazy: () => import('./routes/settings-export') },
              { path: 'general', lazy: () => import('./routes/settings-general') },
              { path: 'retention', lazy: () => import('./routes/settings-retention') },
              { path: 'security', lazy: () => import('./routes/settings-security') },
              { path: 'sign-in', lazy: () => import('./routes/settings-sign-in') },
              { path: 'cluster', lazy: () => import('./routes/settings-cluster') },
              { path: 'locations', lazy: () => import('./routes/settings-locations') },
            ],
          },
          { path: '*', lazy: () => import('./routes/not-found') },
        ],
      },
    ],
  },
]);
