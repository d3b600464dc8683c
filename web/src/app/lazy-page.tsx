import { Button, Center, Loader, Overlay, Stack, Text } from '@mantine/core';
import {
  Component,
  isValidElement,
  lazy,
  Suspense,
  useEffect,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import { loadChunk } from './chunk-timeout';

/** What a screen shows while its code downloads: a centred loader that screen readers announce. */
export function PageLoading({ fullPage = false }: { fullPage?: boolean }) {
  return (
    <Center mih={fullPage ? '100vh' : '60vh'} p="md">
      <Stack align="center" gap="sm" role="status">
        <Loader aria-hidden />
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      </Stack>
    </Center>
  );
}

function ChunkFailed() {
  return (
    <Stack align="center" gap="sm" role="alert">
      <Text fw={600}>This page did not load.</Text>
      <Text size="sm" c="dimmed">
        Check the connection, then try again.
      </Text>
      <Button onClick={() => window.location.reload()}>Try again</Button>
    </Stack>
  );
}

class ChunkErrorBoundary extends Component<
  { children: ReactNode; fallback: (failure: ReactNode) => ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback(<ChunkFailed />) : this.props.children;
  }
}

/** A component whose code is downloaded on first use; `preload` starts the download early. */
export type LazyComponent<P extends object> = ComponentType<P> & { preload(): void };

function lazyModule<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
) {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const start = () => {
    loading ??= loadChunk(load).then((module) => ({
      default: pick(module),
    }));
    return loading;
  };
  const preload = () => {
    // A failure shows where the component renders; nothing to report here.
    start().catch(() => undefined);
  };
  return { Lazy: lazy(start), preload };
}

/**
 * A screen (or a layout) loaded on first use, in its own chunk: the public site does not download
 * the console, the console does not download the public site, and nobody downloads the
 * dispatcher's map before opening it. While the chunk loads the screen says so; a chunk that
 * fails or takes longer than SPEC.md's 120 seconds offers to try again.
 *
 *     const TeamsPage = lazyPage(() => import('../admin/teams/TeamsPage'), (m) => m.TeamsPage);
 */
export function lazyPage<M, P extends object = Record<string, never>>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
  options: { fullPage?: boolean } = {},
): LazyComponent<P> {
  const { Lazy, preload } = lazyModule(load, pick);
  const fullPage = options.fullPage ?? false;
  function LazyPage(props: P) {
    return (
      <ChunkErrorBoundary
        fallback={(failure) => (
          <Center mih={fullPage ? '100vh' : '60vh'} p="md">
            {failure}
          </Center>
        )}
      >
        <Suspense fallback={<PageLoading fullPage={fullPage} />}>
          <Lazy {...props} />
        </Suspense>
      </ChunkErrorBoundary>
    );
  }
  return Object.assign(LazyPage, { preload });
}

/** Over the page, like the modal it stands for. */
function ModalLayer({ children, onClose }: { children: ReactNode; onClose?: () => void }) {
  return (
    <Overlay fixed center backgroundOpacity={0.6} zIndex={300} onClick={onClose}>
      <Stack
        align="center"
        gap="sm"
        p="lg"
        bg="var(--mantine-color-body)"
        style={{ borderRadius: 'var(--mantine-radius-md)' }}
        onClick={(event) => event.stopPropagation()}
      >
        {children}
      </Stack>
    </Overlay>
  );
}

/**
 * Mounts the loaded modal closed, then opens it: Mantine's modals remember what had the focus
 * (to give it back on close) and run their opening transition only when `opened` changes.
 */
function OpenAfterMount<P extends { opened: boolean }>({
  Modal,
  props,
}: {
  Modal: ComponentType<P>;
  props: P;
}) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return <Modal {...props} opened={mounted && props.opened} />;
}

/**
 * A modal whose code is downloaded the first time it opens (or on `preload`), then kept mounted
 * like any other modal. While it downloads, a loader stands where the modal will appear.
 */
export function lazyModal<M, P extends { opened: boolean; onClose(): void }>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
): LazyComponent<P> {
  const { Lazy, preload } = lazyModule(load, pick);
  function LazyModal(props: P) {
    const [wanted, setWanted] = useState(props.opened);
    if (props.opened && !wanted) setWanted(true);
    if (!wanted) return null;
    return (
      <ChunkErrorBoundary
        fallback={(failure) =>
          props.opened ? <ModalLayer onClose={props.onClose}>{failure}</ModalLayer> : null
        }
      >
        <Suspense
          fallback={
            props.opened ? (
              <ModalLayer onClose={props.onClose}>
                <Stack align="center" gap="sm" role="status">
                  <Loader aria-hidden />
                  <Text size="sm">Loading…</Text>
                </Stack>
              </ModalLayer>
            ) : null
          }
        >
          <OpenAfterMount Modal={Lazy as ComponentType<P>} props={props} />
        </Suspense>
      </ChunkErrorBoundary>
    );
  }
  return Object.assign(LazyModal, { preload });
}

/** The preload of a lazy page rendered by `element`, if it is one. */
export function preloadOf(element: ReactNode): (() => void) | undefined {
  if (!isValidElement(element) || typeof element.type !== 'function') return undefined;
  const { preload } = element.type as Partial<LazyComponent<object>>;
  return typeof preload === 'function' ? preload : undefined;
}
