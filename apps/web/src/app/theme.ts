/*
 * The portal's Mantine theme: the palette, shades and defaults chosen for WCAG AA contrast (issue
 * #14) and the few component defaults the app relies on. theme.test.ts checks the contrasts.
 */
import {
  Anchor,
  Checkbox,
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  darken,
  defaultVariantColorsResolver,
  InputWrapper,
  Loader,
  Modal,
  Notification,
  parseThemeColor,
  Select,
  type VariantColorsResolver,
} from '@mantine/core';

/** A filled element's hover: its colour 15 % darker (white text on it stays at 4.5:1 or more). */
const filledHover = (color: string) => darken(color, 0.15);

/**
 * Text on the tinted backgrounds of the light and subtle variants (badges,
 * light buttons, alerts, the avatar) is 4.4:1 or less even in shade 9: it is
 * darkened by a third, which keeps the hue and passes AA (4.5:1).
 */
export const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  const { value } = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  // A filled button's hover: Mantine goes one shade lighter from shade 9 (teal 8 under white text
  // is 3.94:1, red 8 4.0:1; axe saw it when the pointer rested on "Add Participant"): darker instead.
  if ((input.variant ?? 'filled') === 'filled') return { ...colors, hover: filledHover(value) };
  if (input.variant !== 'light' && input.variant !== 'subtle') return colors;
  return { ...colors, color: darken(value, 0.3) };
};

/**
 * Text colours of a change between two periods (the overview tiles' "Change: +…"): up teal 9, down
 * orange 9 darkened by a tenth. Shade 8 of both, what the tiles used, is under 4.5:1 on white
 * (teal 3.95, orange 3.58) and orange 9 too (4.30); this keeps the hues and passes.
 */
export const changeColors = {
  up: DEFAULT_THEME.colors.teal[9],
  down: darken(DEFAULT_THEME.colors.orange[9], 0.1),
} as const;

export const theme = createTheme({
  variantColorResolver,
  primaryColor: 'teal',
  // WCAG AA contrast (4.5:1 for text, issue #14): Mantine's default shade 6 of teal, red … on white
  // is about 2.6:1. Shade 9 is the darkest of each palette: links, filled and light buttons pass.
  primaryShade: { light: 9, dark: 7 },
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'md',
  // The default radius would make a checkbox look like a radio button: checkboxes stay square.
  components: {
    Checkbox: Checkbox.extend({ defaultProps: { radius: 'xs' } }),
    // Links are underlined: colour is never the only thing telling a link from its sentence.
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    // A field's error is announced when it appears (role alert: assertive, read at once), and Mantine
    // ties it to its input with aria-describedby and aria-invalid.
    InputWrapper: InputWrapper.extend({ defaultProps: { errorProps: { role: 'alert' } } }),
    // A loader is a live status: its aria-label is then allowed (axe aria-prohibited-attr on a bare
    // span) and read when it appears.
    Loader: Loader.extend({ defaultProps: { role: 'status' } }),
    // The modal's × is an icon: name it (axe button-name).
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    // …and a notification's × too, wherever it is shown from.
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
    }),
    // Picking the option a dropdown already shows keeps it (Mantine's default clears it, which left
    // a required field empty and the form blocked); a field that may be emptied has a clear button.
    Select: Select.extend({ defaultProps: { allowDeselect: false } }),
  },
});

// "Dimmed" text (hints, captions) in gray 7 rather than gray 6, which is 3.3:1 on white; field errors
// (message, invalid input's text and placeholder) in red 9 rather than red 6, which is 3.6:1. A
// filled element without a color prop takes its hover from these variables, not from the
// variantColorResolver: the same darker hover for each palette and the primary colour.
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    ...Object.fromEntries(
      Object.entries(t.colors).map(([name, shades]) => [
        `--mantine-color-${name}-filled-hover`,
        filledHover(shades[9]),
      ]),
    ),
    '--mantine-primary-color-filled-hover': filledHover(t.colors[t.primaryColor]![9]),
  },
  dark: {},
});
