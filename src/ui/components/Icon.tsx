/** Small inline icons (decorative: every control that shows one also has a text name). */
const PATHS = {
  play: 'M5 3.5v9l8-4.5z',
  pause: 'M4.5 3h2.5v10H4.5zM9 3h2.5v10H9z',
  back: 'M11.5 3.5v9L5 8zM3.5 3.5h1.5v9H3.5z',
  forward: 'M4.5 3.5v9L11 8zM11 3.5h1.5v9H11z',
  step: 'M3 8h7M7.5 4.5 11 8l-3.5 3.5M13 3.5v9',
  run: 'M2.5 8h6M6 4.5 9.5 8 6 11.5M9.5 8h4',
  pauseClient: 'M5 3.5v9M11 3.5v9',
  crash: 'M8 2.5 9.5 6.5 13.5 5 11 8.5 13.5 12 9 10.5 8 13.5 6.5 10.5 2.5 12 5 8.5 2.5 5l4 1.5z',
  clock: 'M8 2.5a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11zM8 5v3.2l2.2 1.3',
  expiry: 'M8 2.5a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11zM5 8h6',
  link: 'M6.5 9.5l3-3M7 4.5l1-1a2.5 2.5 0 0 1 3.5 3.5l-1 1M9 11.5l-1 1a2.5 2.5 0 0 1-3.5-3.5l1-1',
  moon: 'M12.5 10A5 5 0 0 1 6 3.5a5 5 0 1 0 6.5 6.5z',
  sun: 'M8 5.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5zM8 1.5v1.5M8 13v1.5M1.5 8H3M13 8h1.5M3.4 3.4l1 1M11.6 11.6l1 1M3.4 12.6l1-1M11.6 4.4l1-1',
  present: 'M2 3h12v8H2zM8 11v2.5M5.5 13.5h5',
  help: 'M6 6a2 2 0 1 1 2.8 1.8c-.5.3-.8.7-.8 1.2v.5M8 11.5v.5',
  warning: 'M8 2.5 14 13H2zM8 6.5v3M8 11v.5',
  check: 'M3.5 8.5l3 3 6-7',
  chevron: 'M4.5 6l3.5 3.5L11.5 6',
  external: 'M9 3h4v4M13 3 7.5 8.5M11 9.5V13H3V5h3.5',
  close: 'M4 4l8 8M12 4l-8 8',
  lock: 'M4.5 7.5h7v5.5h-7zM6 7.5V5.5a2 2 0 0 1 4 0v2',
  terminal: 'M2 3h12v10H2zM4.5 6l2 2-2 2M8 10.5h3.5',
  code: 'M5.5 4.5 2 8l3.5 3.5M10.5 4.5 14 8l-3.5 3.5',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, filled = false, className }: { name: IconName; filled?: boolean; className?: string }) {
  const solid = filled || name === 'play' || name === 'pause' || name === 'back' || name === 'forward';
  return (
    <svg className={className ? `icon ${className}` : 'icon'} viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
      <path
        d={PATHS[name]}
        fill={solid ? 'currentColor' : 'none'}
        stroke={solid ? 'none' : 'currentColor'}
        strokeWidth="1.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
