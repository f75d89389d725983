// A pure function of a string answered from memory: for questions that cost something to answer
// afresh (parsing, a few Intl calls) and come back all day. At most `max` answers are kept; past
// that, the lot is dropped and memory starts again, so whatever callers send, it stays bounded.
export function remembered<T>(max: number, find: (key: string) => T): (key: string) => T {
  const answers = new Map<string, T>();
  return (key) => {
    if (answers.has(key)) return answers.get(key) as T;
    if (answers.size >= max) answers.clear();
    const answer = find(key);
    answers.set(key, answer);
    return answer;
  };
}
