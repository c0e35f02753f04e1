import { createBrowserRouter } from 'react-router';
import { Layout } from './Layout';
import { RouteError } from './RouteError';

// Every screen is its own chunk; the dashboard's is small, the monitor page brings uPlot.
export const router = createBrowserRouter([
  {
    element: <Layout />,
    errorElement: <RouteError />,
    HydrateFallback: () => null,
    children: [
      { index: true, lazy: () => import('./routes/dashboard') },
      { path: 'monitors/new', lazy: () => import('./routes/monitor-new') },
      { path: 'monitors/:id', lazy: () => import('./routes/monitor') },
      { path: 'monitors/:id/edit', lazy: () => import('./routes/monitor-edit') },
      { path: '*', lazy: () => import('./routes/not-found') },
    ],
  },
]);
