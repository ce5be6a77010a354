import { lazy, type ReactNode, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { FullPageLoader } from '../../components/FullPageLoader';
import { NotFound } from '../../components/NotFound';
import { AppLayout } from '../layout/AppLayout';
import { HomeRoute, PublicOnly, RequireAuth, RouteGate } from './guards';
import { DashboardPage, PRIVATE_ROUTES } from './routeTable';

// the public pages load on demand: a signed-in agent's first screen never carries their forms
const LoginPage = lazy(() => import('../../features/auth/LoginPage').then((m) => ({ default: m.LoginPage })));
const SignupPage = lazy(() => import('../../features/auth/SignupPage').then((m) => ({ default: m.SignupPage })));
const ForgotPasswordPage = lazy(() =>
  import('../../features/auth/ForgotPasswordPage').then((m) => ({ default: m.ForgotPasswordPage })),
);

const Public = ({ children }: { children: ReactNode }) => (
  <PublicOnly>
    <Suspense fallback={<FullPageLoader />}>{children}</Suspense>
  </PublicOnly>
);

export const AppRoutes = () => (
  <Routes>
    <Route
      path="/login"
      element={
        <Public>
          <LoginPage />
        </Public>
      }
    />
    <Route
      path="/signup"
      element={
        <Public>
          <SignupPage />
        </Public>
      }
    />
    <Route
      path="/forgetpsw"
      element={
        <Public>
          <ForgotPasswordPage />
        </Public>
      }
    />
    <Route
      element={
        <RequireAuth>
          <AppLayout />
        </RequireAuth>
      }
    >
      <Route
        index
        element={
          <HomeRoute>
            <DashboardPage />
          </HomeRoute>
        }
      />
      {PRIVATE_ROUTES.map((route) => (
        <Route
          key={route.path}
          path={route.path}
          element={<RouteGate access={route.access}>{route.element}</RouteGate>}
        />
      ))}
      <Route path="*" element={<NotFound />} />
    </Route>
  </Routes>
);
