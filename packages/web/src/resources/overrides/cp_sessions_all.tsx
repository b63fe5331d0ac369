/** The same sessions table as cp_sessions: the same pop-view and row actions. */
export { popView, rowActions } from './cp_sessions.tsx';
