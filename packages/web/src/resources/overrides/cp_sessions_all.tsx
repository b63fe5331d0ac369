/** The same sessions table as cp_sessions: the same pop-view. */
export { popView } from './cp_sessions.tsx';
