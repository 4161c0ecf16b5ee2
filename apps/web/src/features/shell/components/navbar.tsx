import { Anchor, Group, Menu, UnstyledButton } from '@mantine/core';
import { NAV_ITEMS, roleAllows, SYS_ADMIN_MENU } from '@trialwear/contract';
import { Link, NavLink } from 'react-router';
import { useSession } from '../../../lib/session/session-context';
import classes from './navbar.module.css';
import { ProfileMenu } from './profile-menu';

/** Top navigation per role (core §2 Navbar), from the contract's NAV_ITEMS. */
export function Navbar() {
  const { session } = useSession();
  const user = session.kind === 'authorized' ? session.user : null;
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
              </NavLink>
            ))}
            {user.role === 'Sys_Admin' && (
              <Menu position="bottom-start" shadow="md">
                <Menu.Target>
                  <UnstyledButton className={classes.link}>Sys Admin ▾</UnstyledButton>
                </Menu.Target>
                <Menu.Dropdown>
                  {SYS_ADMIN_MENU.map((item) => (
                    <Menu.Item key={item.path} component={Link} to={item.path}>
                      {item.label}
                    </Menu.Item>
                  ))}
                </Menu.Dropdown>
              </Menu>
            )}
          </Group>
        )}
      </Group>
      {user ? (
        <ProfileMenu user={user} />
      ) : (
        session.kind !== 'loading' && (
          <NavLink to="/LoginPage" className={classes.link}>
            Login
          </NavLink>
        )
      )}
    </Group>
  );
}
