// What stands for a person whose camera is off, on their tile and in the recording alike: the first
// letters of their first two names, or a question mark for a blank name.
export function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => [...part][0]!.toUpperCase())
    .join('');
  return letters || '?';
}
