/** The working-hours rules live with the business-hours arithmetic (lib/business-hours); the pipeline reads them here. */
export * from '../lib/business-hours/schedule-rules';
