import { AppShell, Container } from '@mantine/core';
import { Outlet } from 'react-router';
import { Footer } from '../features/shell/components/footer';
import { Navbar } from '../features/shell/components/navbar';

export function Layout() {
  return (
    <AppShell header={{ height: 56 }} footer={{ height: 40 }} padding="md">
      <AppShell.Header>
        <Navbar />
      </AppShell.Header>
      <AppShell.Main>
        <Container size="xl">
          <Outlet />
        </Container>
      </AppShell.Main>
      <AppShell.Footer>
        <Footer />
      </AppShell.Footer>
    </AppShell>
  );
}
