import { Route, Routes } from 'react-router';
import { NotFound } from '../../components/NotFound';
import { ForgotPasswordPage } from '../../features/auth/ForgotPasswordPage';
import { LoginPage } from '../../features/auth/LoginPage';
import { SignupPage } from '../../features/auth/SignupPage';
import { AppLayout } from '../layout/AppLayout';
import { HomeRoute, PublicOnly, RequireAuth, RouteGate } from './guards';
import { DashboardPage, PRIVATE_ROUTES } from './routeTable';

export const AppRoutes = () => (
  <Routes>
    <Route
      path="/login"
      element={
        <PublicOnly>
          <LoginPage />
        </PublicOnly>
      }
    />
    <Route
      path="/signup"
      element={
        <PublicOnly>
          <SignupPage />
        </PublicOnly>
      }
    />
    <Route
      path="/forgetpsw"
      element={
        <PublicOnly>
          <ForgotPasswordPage />
        </PublicOnly>
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
