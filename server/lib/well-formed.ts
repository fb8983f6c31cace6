// A JS string may hold a lone UTF-16 surrogate (JSON text can carry "\ud800"); it is no character.
// As a text parameter pg sends it as U+FFFD (strings are encoded as UTF-8); inside JSON it stays an
// escape that jsonb refuses ("Unicode low surrogate must follow a high surrogate"), failing the
// whole statement. JSON bound for a json/jsonb column whose strings a caller chose goes through
// wellFormedJson (keys are the code's own).

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** JSON.stringify replacer: each lone surrogate in a string value becomes U+FFFD, as in a text column. */
function wellFormedReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? value.replace(LONE_SURROGATE, '\uFFFD') : value;
}

/** JSON text that json/jsonb columns accept whatever strings the value holds. */
export function wellFormedJson(value: unknown): string {
  return JSON.stringify(value, wellFormedReplacer);
}
