/** The login token lives in local storage (spec part 1 §7): a stored token means logged in. */
const KEY = 'token';

export const getToken = (): string | null => localStorage.getItem(KEY);
export const setToken = (token: string) => localStorage.setItem(KEY, token);
export const clearToken = () => localStorage.removeItem(KEY);
