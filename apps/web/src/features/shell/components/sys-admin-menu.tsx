import { Menu, UnstyledButton } from '@mantine/core';
import { SYS_ADMIN_MENU } from '@trialwear/contract';
import { Link } from 'react-router';
import classes from './navbar.module.css';

/** The navbar's Sys Admin drop-down (core §2). */
export function SysAdminMenu() {
  return (
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
  );
}
