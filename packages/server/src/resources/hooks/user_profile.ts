/** One's own profile is the users table: the same password hashing and session rules. */
export { hooks } from './users.ts';
