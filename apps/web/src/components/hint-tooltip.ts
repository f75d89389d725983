// Mantine's Tooltip and its floating layer, in a chunk of their own: components/hint.tsx loads it when a
// pointer first reaches an element with a hint.
export { Tooltip } from '@mantine/core';
