// Role accounts (info@, admin@, support@ …) from role-based-email-addresses, plus a few local
// additions and minus known false positives. A role is a flag and a score penalty, never a verdict.
import roles from 'role-based-email-addresses';
import { loadList } from '../data/load-list';

const notRole = new Set(loadList('not-role.txt'));
const roleSet = new Set([...roles.map((r) => r.toLowerCase()), ...loadList('extra-roles.txt')].filter((r) => !notRole.has(r)));

/** The local part without quotes, sub-address (+tag) and case. */
export function baseLocalPart(local: string): string {
  const unquoted = local.startsWith('"') ? local.slice(1, -1) : local;
  const plus = unquoted.indexOf('+');
  return (plus > 0 ? unquoted.slice(0, plus) : unquoted).toLowerCase();
}

export function isRoleAccount(local: string): boolean {
  return roleSet.has(baseLocalPart(local));
}
