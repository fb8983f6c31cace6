/** The map's value for `key`, created by `create()` and stored the first time it is asked for. */
export function getOrCreate<K extends object, V>(map: WeakMap<K, V>, key: K, create: () => V): V;
export function getOrCreate<K, V>(map: Map<K, V>, key: K, create: () => V): V;
export function getOrCreate<K extends object, V>(map: Map<K, V> | WeakMap<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}
