import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';

/** SPEC.md §8, §9: loading a script chunk gives up after 120 seconds. */
export const chunkLoadTimeoutMs = 120_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('The page took too long to load.')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

class ChunkErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Center h="60vh" p="md">
        <Stack align="center" gap="sm" role="alert">
          <Text fw={600}>This page did not load.</Text>
          <Text size="sm" c="dimmed">
            Check the connection, then try again.
          </Text>
          <Button onClick={() => window.location.reload()}>Try again</Button>
        </Stack>
      </Center>
    );
  }
}

/**
 * A screen loaded on first use, in its own chunk: the public site and the caller's page (opened
 * on cheap phones over weak signals) do not download the dispatcher's map and its libraries.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): ComponentType {
  const Page = lazy(() => withTimeout(load(), chunkLoadTimeoutMs));
  return function LazyPage() {
    return (
      <ChunkErrorBoundary>
        <Suspense
          fallback={
            <Center h="60vh">
              <Loader aria-label="Loading" />
            </Center>
          }
        >
          <Page />
        </Suspense>
      </ChunkErrorBoundary>
    );
  };
}
