import { Tab as HuiTab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/cn';

/**
 * Headless UI tabs with the app's look. Arrow keys move between tabs; panels are linked to tabs.
 *   <Tabs defaultIndex={0}><TabsList><TabsTrigger>One</TabsTrigger></TabsList>
 *   <TabsPanels><TabsPanel>…</TabsPanel></TabsPanels></Tabs>
 */
export function Tabs({ className, ...props }: ComponentProps<typeof TabGroup> & { className?: string }) {
  return <TabGroup className={className} {...props} />;
}

export function TabsList({ className, children, 'aria-label': ariaLabel }: { className?: string; children: ReactNode; 'aria-label'?: string }) {
  return (
    <TabList
      aria-label={ariaLabel}
      className={cn('flex gap-1 overflow-x-auto rounded-lg border border-slate-200 bg-slate-100/80 p-1', className)}
    >
      {children}
    </TabList>
  );
}

export function TabsTrigger({ className, children, disabled }: { className?: string; children: ReactNode; disabled?: boolean }) {
  return (
    <HuiTab
      disabled={disabled}
      className={cn(
        'cursor-pointer rounded-md px-3.5 py-1.5 text-sm font-medium whitespace-nowrap text-slate-600 transition-colors',
        'hover:text-slate-900 data-selected:bg-white data-selected:text-slate-900 data-selected:shadow-sm',
        'disabled:cursor-not-allowed disabled:opacity-50',
        className,
      )}
    >
      {children}
    </HuiTab>
  );
}

export function TabsPanels({ className, children }: { className?: string; children: ReactNode }) {
  return <TabPanels className={cn('mt-6', className)}>{children}</TabPanels>;
}

export function TabsPanel({ className, children, unmount }: { className?: string; children: ReactNode; unmount?: boolean }) {
  return (
    <TabPanel unmount={unmount} className={cn('focus-visible:outline-offset-4', className)}>
      {children}
    </TabPanel>
  );
}
