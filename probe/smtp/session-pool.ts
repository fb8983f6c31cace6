// Domains whose mail servers share an address (shared hosting, big providers' MX farms) share
// sessions too: a worker that holds a connection slot to an IP fills the rest of its session with
// ready recipients of other domains served by the same IP. One connection, one MAIL FROM, RCPTs
// for several domains: fewer connections and fewer waits behind the per-IP cap (tarpits!).
export class SessionPool<M> {
  private readonly byIp = new Map<string, Set<M>>();

  join(ips: Iterable<string>, member: M): void {
    for (const ip of ips) {
      let set = this.byIp.get(ip);
      if (!set) this.byIp.set(ip, (set = new Set()));
      set.add(member);
    }
  }

  leave(ips: Iterable<string>, member: M): void {
    for (const ip of ips) {
      const set = this.byIp.get(ip);
      set?.delete(member);
      if (set && set.size === 0) this.byIp.delete(ip);
    }
  }

  /** Other members served by `ip`. */
  others(ip: string, except: M): M[] {
    return [...(this.byIp.get(ip) ?? [])].filter((m) => m !== except);
  }
}
