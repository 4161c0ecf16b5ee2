/** REDCap (issue #25 item 3, decision 048): the trial page's REDCap section. */
export { RedcapModal } from './components/redcap-modal';
