/** The Wildtrack mark: a location pin over a paw print. */
export function BrandMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="16" fill="#0f766e" />
      <path d="M32 10c-9 0-16 7-16 15.8C16 38 32 54 32 54s16-16 16-28.2C48 17 41 10 32 10z" fill="#ecfdf5" />
      <ellipse cx="32" cy="29" rx="5.2" ry="4.4" fill="#0f766e" />
      <circle cx="25.5" cy="22.5" r="2.3" fill="#0f766e" />
      <circle cx="30" cy="19.6" r="2.3" fill="#0f766e" />
      <circle cx="34.6" cy="19.6" r="2.3" fill="#0f766e" />
      <circle cx="38.8" cy="22.8" r="2.3" fill="#0f766e" />
    </svg>
  );
}
