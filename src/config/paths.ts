// The app's page paths live in server/contracts/pages.ts, where the server reads them too (a path
// that is none of them is answered 404).
export { paths } from '../../server/contracts/pages';
