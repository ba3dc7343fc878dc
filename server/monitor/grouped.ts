/**
 * Turns a per-item database call into grouped calls: items asked for at about the same time — by the destinations a
 * worker holds, each waiting on its own — go to the database as ONE statement.
 *
 * At most one group is in flight; items that arrive meanwhile wait for the next one (the group-commit pattern), so a
 * busy worker makes big groups and an idle one sends a lone item at once. Before a group goes, it waits for the end
 * of the current event-loop turn (setImmediate) and, while more items keep arriving, for up to MAX_LINGER_TURNS more:
 * the receivers' answers to one group's messages come back over a couple of turns, and each extra statement costs far
 * more than a turn (about a millisecond on PGlite, where statements run one at a time on the event loop).
 * Items with the same key never share a group (a statement may update a row only once): the second waits for the next.
 */
const MAX_LINGER_TURNS = 2;

export function grouped<In, Out>(run: (items: In[]) => Promise<Out[]>, keyOf: (item: In) => string): (item: In) => Promise<Out> {
  type Waiting = { item: In; resolve: (out: Out) => void; reject: (err: unknown) => void };
  let queue: Waiting[] = [];
  let running = false;
  let scheduled = false;

  const schedule = () => {
    if (running || scheduled || queue.length === 0) return;
    scheduled = true;
    let seen = queue.length;
    let turns = 0;
    const endOfTurn = () => {
      if (queue.length > seen && turns < MAX_LINGER_TURNS) {
        seen = queue.length;
        turns++;
        setImmediate(endOfTurn);
      } else void flush();
    };
    setImmediate(endOfTurn);
  };

  async function flush() {
    scheduled = false;
    if (running || queue.length === 0) return;
    running = true;
    const group: Waiting[] = [];
    const later: Waiting[] = [];
    const keys = new Set<string>();
    for (const w of queue) {
      const key = keyOf(w.item);
      if (keys.has(key)) later.push(w);
      else {
        keys.add(key);
        group.push(w);
      }
    }
    queue = later;
    try {
      const out = await run(group.map((w) => w.item));
      group.forEach((w, i) => w.resolve(out[i]));
    } catch (err) {
      for (const w of group) w.reject(err);
    } finally {
      running = false;
      schedule();
    }
  }

  return (item) =>
    new Promise<Out>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      schedule();
    });
}
