/** Imported on its own by the sign-in form, so that it does not pull in the tracking machines. */
export * from './events';
export {
  authenticationMachine,
  authenticationStates,
  selectSignInFlowState,
  type AuthenticationContext,
  type AuthenticationInput,
} from './machine';
export * from './lockout';
export * from './sign-in-flow';
export * from './sign-in-mirror';
export * from './registration';
