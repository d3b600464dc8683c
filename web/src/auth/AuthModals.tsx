import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { lazyModal } from '../app/lazy-page';

// Downloaded when first opened: the forms, their validation and the API client are not part of
// the pages that open them.
const SignInModal = lazyModal(
  () => import('./SignInModal'),
  (module) => module.SignInModal,
);
const CreateAccountModal = lazyModal(
  () => import('./CreateAccountModal'),
  (module) => module.CreateAccountModal,
);

interface AuthModals {
  openSignIn(): void;
  openCreateAccount(): void;
}

const AuthModalsContext = createContext<AuthModals | null>(null);

/** The Sign In and Create Account modals, openable from any page (the site's nav and hero). */
export function AuthModalsProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<'sign-in' | 'create-account' | null>(null);
  const value = useMemo<AuthModals>(
    () => ({
      openSignIn: () => setOpen('sign-in'),
      openCreateAccount: () => setOpen('create-account'),
    }),
    [],
  );
  return (
    <AuthModalsContext.Provider value={value}>
      {children}
      <SignInModal
        opened={open === 'sign-in'}
        onClose={() => setOpen(null)}
        onCreateAccount={() => setOpen('create-account')}
      />
      <CreateAccountModal
        opened={open === 'create-account'}
        onClose={() => setOpen(null)}
        onSignIn={() => setOpen('sign-in')}
      />
    </AuthModalsContext.Provider>
  );
}

export function useAuthModals(): AuthModals {
  const modals = useContext(AuthModalsContext);
  if (!modals) throw new Error('useAuthModals needs an AuthModalsProvider above it');
  return modals;
}
