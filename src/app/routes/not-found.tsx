import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';
import { usePageTitle } from '../../hooks/use-page-title';

export function NotFoundRoute() {
  usePageTitle('Page not found');
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-slate-50 px-6 text-center">
      <p className="text-6xl font-bold text-brand-600">404</p>
      <h1 className="mt-4 text-2xl font-semibold text-slate-900">Oops! Page not found</h1>
      <p className="mt-2 text-slate-600">The page you are looking for does not exist or has moved.</p>
      <Link to={paths.home} className="mt-6 rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
        Return to Home
      </Link>
    </main>
  );
}

export default NotFoundRoute;
