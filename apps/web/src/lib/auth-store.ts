// The auth state: user, tokens, trial data, loading, error, success. Local storage is the
// source of truth (restored at start, shared with other tabs); this store mirrors it for React.
import { create } from 'zustand';
import { storageKeys } from '@mooz/contract/config';
import type { LoginData, ProfilePatch, TrialStatus, User } from './api-types';
import { apiRoutes } from '@mooz/contract/api-routes';
import { call, errorOf, getAccessToken, getRefreshToken } from './api';
import { announceAuthChange, clearStoredAuth, onAuthChange, readStoredUser, type StoredUser } from './stored-auth';
import { writeStorage } from './storage';

interface AuthState {
  user: StoredUser | null;
  access: string | null;
  refresh: string | null;
  trial: TrialStatus | null;
  loading: boolean;
  error: unknown;
  success: boolean;
  login(credentials: { email: string; password: string }): Promise<LoginData>;
  /** Keeps a session the server handed over (login's answer; a verified email's too). */
  signedIn(data: LoginData): void;
  logout(): Promise<void>;
  fetchProfile(): Promise<User | null>;
  updateProfile(patch: ProfilePatch): Promise<User>;
  /** Keeps the user the server answered after a change of the account (an email change's). */
  keepProfile(user: User): void;
  fetchTrialStatus(): Promise<TrialStatus | null>;
}

const fromStorage = () => ({ user: readStoredUser(), access: getAccessToken(), refresh: getRefreshToken() });

function storeUser(user: object) {
  writeStorage(storageKeys.user, JSON.stringify(user));
  announceAuthChange();
}

export const useAuthStore = create<AuthState>()((set, get) => ({
  ...fromStorage(),
  trial: null,
  loading: false,
  error: null,
  success: false,

  async login(credentials) {
    set({ loading: true, error: null, success: false });
    try {
      const { data } = await call(apiRoutes.auth.login, { body: credentials, auth: false });
      get().signedIn(data);
      return data;
    } catch (error) {
      set({ loading: false, error: errorOf(error), success: false });
      throw error;
    }
  },

  signedIn(data) {
    writeStorage(storageKeys.access, data.access);
    writeStorage(storageKeys.refresh, data.refresh);
    const { access: _a, refresh: _r, user, ...trial } = data;
    // The stored record carries the user's ability and role (what the ability and the socket read) and
    // the login's trial fields.
    storeUser({ ...trial, ...user });
    set({ ...fromStorage(), loading: false, error: null, success: true, trial: { ...trial, trial_days: get().trial?.trial_days ?? 0 } });
  },

  async logout() {
    const refresh = getRefreshToken();
    set({ loading: true });
    try {
      if (refresh) await call(apiRoutes.auth.logout, { body: { refresh }, auth: false });
    } catch {
      // Logout clears the session whether or not the server call succeeds.
    } finally {
      clearStoredAuth();
      set({ user: null, access: null, refresh: null, trial: null, loading: false, error: null, success: false });
    }
  },

  async fetchProfile() {
    set({ loading: true, error: null });
    try {
      const { data } = await call(apiRoutes.auth.profile);
      storeUser(data);
      set({ user: readStoredUser(), loading: false, success: true });
      return data;
    } catch (error) {
      set({ loading: false, error: errorOf(error), success: false });
      return null;
    }
  },

  async updateProfile(patch) {
    const { data } = await call(apiRoutes.auth.updateProfile, { body: patch });
    get().keepProfile(data);
    return data;
  },

  keepProfile(user) {
    storeUser(user);
    set({ user: readStoredUser() });
  },

  async fetchTrialStatus() {
    try {
      const { data } = await call(apiRoutes.auth.trialStatus);
      set({ trial: data });
      return data;
    } catch (error) {
      set({ error: errorOf(error) });
      return null;
    }
  },
}));

// Whoever changes the stored session (this tab's API client, another tab) is mirrored here.
if (typeof window !== 'undefined') {
  onAuthChange(() => {
    const next = fromStorage();
    const state = useAuthStore.getState();
    if (next.access !== state.access || next.refresh !== state.refresh || next.user !== state.user) {
      useAuthStore.setState(next.access ? next : { ...next, trial: null });
    }
  });
}
