/** Placeholder so the shell builds; the feature engineer replaces this file. */
const SettingsPage = () => null;

export default SettingsPage;
