/** Study health (issue #23): the page comes through the page registry; the navigation's alert badge. */
export { AlertCountBadge } from './components/alert-count-badge';
