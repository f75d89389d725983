// The round grey icon buttons of the top bar (the gear, the skin, the language), which the floating
// tools show too when the bar is hidden: named by their title for a pointer and alike for a screen reader.
import { forwardRef } from 'react';
import { ActionIcon, type ActionIconProps, type ElementProps } from '@mantine/core';

type BarButtonProps = ActionIconProps & ElementProps<'button', keyof ActionIconProps> & { label: string };

export const BarButton = forwardRef<HTMLButtonElement, BarButtonProps>(function BarButton({ label, ...props }, ref) {
  return (
    <ActionIcon
      ref={ref}
      variant="subtle"
      color="gray"
      size="lg"
      radius="xl"
      title={label}
      aria-label={label}
      {...props}
    />
  );
});
