// Characters no name a person types holds, and that change how text around it is drawn or read:
// C0/C1 controls (NUL, line breaks, escapes) and the bidirectional controls (U+202E RIGHT-TO-LEFT
// OVERRIDE and its kin, which draw 'invoices\u202Evsc.exe' as 'invoicesexe.csv'). Names shown to
// other people (file names in History, schedule names, a white-label product name in mail subjects)
// refuse them.
export const TEXT_CONTROLS = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
