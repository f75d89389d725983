// One CASL ability for the whole app, built from the ability rules of the stored session record
// (read on Auth only when there is none). It is
// updated in place, so useAbility() re-renders through CASL's own "updated" event.
import { createContext, useContext, useSyncExternalStore } from 'react';
import { buildAbility, denialMessage, guestRules, type AppAbility, type Rule } from '@mooz/contract/permissions';
import { onAuthChange, readStoredUser } from './stored-auth';

function rulesFromStoredSession(): Rule[] {
  const ability = readStoredUser()?.ability;
  return Array.isArray(ability) ? ability : guestRules;
}

export function createSessionAbility(): AppAbility {
  return buildAbility(rulesFromStoredSession());
}

export const appAbility: AppAbility = createSessionAbility();

/** Rebuild the rules from storage; the accounts work calls announceAuthChange(), which lands here. */
export function refreshAbility(ability: AppAbility = appAbility): void {
  ability.update(rulesFromStoredSession());
}

onAuthChange(() => refreshAbility());

/** A rule's own reason, else the spec's default 'Cannot execute {action} on {subject}'. */
export function explainDenial(ability: AppAbility, action: Parameters<AppAbility['can']>[0], subject: string): string {
  const rule = ability.relevantRuleFor(action, subject as never);
  return rule?.reason ?? denialMessage(action, subject);
}

export const AbilityContext = createContext<AppAbility>(appAbility);

/** The ability, re-rendering the caller whenever its rules change. */
export function useAbility(): AppAbility {
  const ability = useContext(AbilityContext);
  useSyncExternalStore(
    (notify) => ability.on('updated', notify),
    () => ability.rules,
  );
  return ability;
}
