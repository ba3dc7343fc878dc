/**
 * Both app store hosts at once, for tests and benchmarks that search and read app details: an iTunes host and a
 * Google Play host serving the demo catalog, each with a trouble switch in front (500s, hangs, captchas, delays).
 * Use `env` with setEnvForTests, or as process.env of a child process.
 */
import { startFakeServer, type FakeServer, type FakeHandler } from './http';
import { itunesRoutes } from './itunes';
import { googlePlayStoreRoutes, type PlayFakeOptions } from './googlePlay';
import { troubleSwitch, type TroubleSwitch } from './trouble';
import { createDemoCatalog, type DemoCatalog } from '../fixtures/catalog';

export type AppStoreFakes = {
  catalog: DemoCatalog;
  itunes: FakeServer;
  play: FakeServer;
  itunesTrouble: TroubleSwitch;
  playTrouble: TroubleSwitch;
  /** Mutable: read on every request. */
  playOptions: PlayFakeOptions;
  env: { ITUNES_BASE_URL: string; GOOGLE_PLAY_BASE_URL: string };
  /** Forget recorded requests (e.g. between tests). */
  resetRequests(): void;
  /** A clean slate between tests: no trouble, default Play options, no recorded requests (the catalog is kept). */
  reset(): void;
  close(): Promise<void>;
};

/** `extra` handlers are served by the same hosts after ours (e.g. review feeds). */
export async function startAppStoreFakes(
  catalog: DemoCatalog = createDemoCatalog(),
  extra: { itunes?: FakeHandler[]; play?: FakeHandler[] } = {},
): Promise<AppStoreFakes> {
  const itunesTrouble = troubleSwitch();
  const playTrouble = troubleSwitch();
  const playOptions: PlayFakeOptions = {};
  const itunes = await startFakeServer([itunesTrouble.handler, itunesRoutes(catalog), ...(extra.itunes ?? [])]);
  const play = await startFakeServer([playTrouble.handler, googlePlayStoreRoutes(catalog, playOptions), ...(extra.play ?? [])]);
  const resetRequests = () => {
    itunes.requests.length = 0;
    play.requests.length = 0;
  };
  return {
    catalog,
    itunes,
    play,
    itunesTrouble,
    playTrouble,
    playOptions,
    env: { ITUNES_BASE_URL: itunes.url, GOOGLE_PLAY_BASE_URL: play.url },
    resetRequests,
    reset() {
      itunesTrouble.clear();
      playTrouble.clear();
      for (const key of Object.keys(playOptions) as Array<keyof PlayFakeOptions>) delete playOptions[key];
      resetRequests();
    },
    async close() {
      await Promise.all([itunes.close(), play.close()]);
    },
  };
}
