/**
 * The conventions every page, chart, tile and export follows (issue #26),
 * said once: the export's data dictionary lists them after the metrics
 * (source trialwear_conventions).
 */
export const DATA_CONVENTIONS = [
  {
    key: 'no_data_vs_zero',
    name: 'No data and 0',
    unit: '',
    description:
      'A day the provider reports as 0 is 0 (Fitbit\'s daily activity series answer 0 for a day the tracker recorded nothing); a day the provider has no record for is no data: no row in the export, "—" on the pages, left out of averages. Tables, charts, overview tiles and exports apply the same rule.',
    deviceType: '',
  },
] as const;
export const DATA_CONVENTIONS_SOURCE = 'trialwear_conventions';
