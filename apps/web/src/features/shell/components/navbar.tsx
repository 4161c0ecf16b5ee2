import { Anchor, Group } from '@mantine/core';
import { NAV_ITEMS, PARTICIPANT_ROUTES, roleAllows } from '@trialwear/contract';
import { lazy, Suspense } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { useSession } from '../../../lib/session/session-context';
import { AlertCountBadge } from '../../study-health';
import classes from './navbar.module.css';

// The menus (and Mantine's popover and floating-ui under them) only show to a signed-in user:
// they load then, so the signed-out pages (the login page first) do not carry them.
const SysAdminMenu = lazy(() => import('./sys-admin-menu').then((m) => ({ default: m.SysAdminMenu })));
const ProfileMenu = lazy(() => import('./profile-menu').then((m) => ({ default: m.ProfileMenu })));

/** Top navigation per role (core §2 Navbar), from the contract's NAV_ITEMS. */
export function Navbar() {
  const { session } = useSession();
  const { pathname } = useLocation();
  const user = session.kind === 'authorized' ? session.user : null;
  // Participants' pages offer their own sign-in and sign-out: no staff "Login" link there.
  const participantPage =
    pathname === '/ParticipantLoginPage' || (PARTICIPANT_ROUTES as readonly string[]).includes(pathname);
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="lg" wrap="nowrap">
        <Anchor component={Link} to="/" className={classes.brand} underline="never">
          TrialWear
        </Anchor>
        {user && (
          <Group gap={4} component="nav" aria-label="Main" wrap="nowrap">
            {NAV_ITEMS.filter((item) => roleAllows(user.role, item.roles)).map((item) => (
              <NavLink key={item.path} to={item.path} end className={classes.link}>
                {item.label}
                {/* Open study-health alerts of the trials the user sees (issue #23 §4). */}
                {item.path === '/Trials' && <AlertCountBadge />}
              </NavLink>
            ))}
            {user.role === 'Sys_Admin' && (
              <Suspense fallback={null}>
                <SysAdminMenu />
              </Suspense>
            )}
          </Group>
        )}
      </Group>
      {user ? (
        <Suspense fallback={null}>
          <ProfileMenu user={user} />
        </Suspense>
      ) : (
        session.kind !== 'loading' &&
        !participantPage && (
          <NavLink to="/LoginPage" className={classes.link}>
            Login
          </NavLink>
        )
      )}
    </Group>
  );
}
