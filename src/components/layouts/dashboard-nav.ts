import { BarChart3, BookOpen, CreditCard, FileUp, History, Key, LayoutDashboard, MailCheck, Plug, RefreshCw, Settings, Users, type LucideIcon } from 'lucide-react';
import { paths } from '../../config/paths';

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Overview matches /dashboard exactly; the others also match their sub-paths. */
  end?: boolean;
}

/** Spec "Dashboard shell": the sidebar entries, in order. */
export const DASHBOARD_NAV: NavItem[] = [
  { label: 'Overview', to: paths.dashboard.root, icon: LayoutDashboard, end: true },
  { label: 'Validate Email', to: paths.dashboard.validate, icon: MailCheck },
  { label: 'Bulk Upload', to: paths.dashboard.bulk, icon: FileUp },
  { label: 'Auto Revalidation', to: paths.dashboard.autoRevalidation, icon: RefreshCw },
  { label: 'History', to: paths.dashboard.history, icon: History },
  { label: 'API Keys', to: paths.dashboard.apiKeys, icon: Key },
  { label: 'Team', to: paths.dashboard.team, icon: Users },
  { label: 'Integrations', to: paths.dashboard.integrations, icon: Plug },
  { label: 'Billing', to: paths.dashboard.billing, icon: CreditCard },
  { label: 'Documentation', to: paths.dashboard.documentation, icon: BookOpen },
  { label: 'Settings', to: paths.dashboard.settings, icon: Settings },
];

export function titleForPath(pathname: string): string {
  const clean = pathname.replace(/\/+$/, '') || '/';
  const item = DASHBOARD_NAV.find((n) => n.to === clean);
  if (!item && clean === paths.dashboard.analytics) return 'Analytics';
  return item?.label ?? 'Dashboard';
}

export const BrandIcon = BarChart3;
