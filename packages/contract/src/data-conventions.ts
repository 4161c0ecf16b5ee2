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
  {
    key: 'display_units',
    name: 'Values as the pages show them',
    unit: '',
    description:
      "In the CSV and Parquet files, value and unit are the provider's (distance in km, weight in kg). Where the portal's pages show another unit, display_value and display_unit give the figure the pages show: distance in mi (km / 1.609, two decimals), weight in Lbs (kg × 2.20462, one decimal). Every other metric is shown in its stored unit: display_value and display_unit are empty.",
    deviceType: '',
  },
] as const;
export const DATA_CONVENTIONS_SOURCE = 'trialwear_conventions';
