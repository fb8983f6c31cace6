// Spec texts for the Validate Email screen (sections 5 and 8).
export const VALIDATE_TEXT = {
  button: 'Validate Email',
  busy: 'Validating...',
  empty: 'Please enter an email address',
  completeTitle: 'Validation Complete',
  completeBody: (result: string) => `Email is ${result}`,
  failedTitle: 'Validation Failed',
  failedFallback: 'An error occurred during validation',
  errorTitle: 'Error',
} as const;

export const RESULT_LABEL = { valid: 'Valid', invalid: 'Invalid', risky: 'Risky' } as const;
