import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  PlayFormatError,
  detailsPageAppId,
  moreResultsLink,
  parsePlayDetails,
  parsePlaySearch,
  parseScriptData,
  readPath,
  readPlaySearch,
} from '@/server/apps/googlePlayParse';

const fixture = (name: string) => fs.readFileSync(path.resolve(__dirname, '../fixtures/googleplay', name), 'utf8');
/** Pages captured from play.google.com by other projects (tests/fixtures/real/README.md says which and when). */
const realFixture = (name: string) => fs.readFileSync(path.resolve(__dirname, '../fixtures/real', name), 'utf8');
const target = { appId: 'com.brightloop.streakly', country: 'us', storeUrl: 'https://play.google.com/store/apps/details?id=com.brightloop.streakly' };

/** A minimal page in Play's layout, for shapes the fixtures do not cover. */
function page(blocks: Array<{ key: string; rpc?: string; data: string }>): string {
  const table = blocks.filter((b) => b.rpc).map((b) => `'${b.key}' : {id:'${b.rpc}',request:[]}`);
  return [
    table.length ? `<script nonce="x">var AF_initDataKeys = []; var AF_dataServiceRequests = {${table.join(',')}}; var AF_initDataChunkQueue = [];</script>` : '',
    ...blocks.map((b) => `<script class="${b.key}" nonce="x">AF_initDataCallback({key: '${b.key}', hash: '1', data:${b.data}, sideChannel: {}});</script>`),
  ].join('\n');
}

describe('parseScriptData', () => {
  test('reads every AF_initDataCallback block and the RPC id behind it', () => {
    const data = parseScriptData(fixture('details-com.brightloop.streakly.html'));
    expect([...data.blocks.keys()]).toEqual(['ds:0', 'ds:1', 'ds:2', 'ds:3', 'ds:4', 'ds:5', 'ds:6', 'ds:8']);
    expect(data.rpcByKey.get('ds:5')).toBe('Ws7gDc');
    expect(readPath(data.blocks.get('ds:5'), [1, 2, 0, 0])).toBe('Streakly: Habit Tracker');
  });

  test('is not fooled by strings that contain brackets or the end of the call', () => {
    const html = page([{ key: 'ds:5', data: '[null,[null,null,[["Tricky ]]}); </script\\u003e \\"quoted\\" [ app"]]]]' }]);
    const data = parseScriptData(html);
    expect(readPath(data.blocks.get('ds:5'), [1, 2, 0, 0])).toBe('Tricky ]]}); </script> "quoted" [ app');
  });

  test('skips blocks whose data is not JSON', () => {
    const html = `<script>AF_initDataCallback({key: 'ds:1', hash: '2', data:function(){return [1]}});</script>${page([{ key: 'ds:2', data: '[2]' }])}`;
    const data = parseScriptData(html);
    expect(data.blocks.has('ds:1')).toBe(false);
    expect(data.blocks.get('ds:2')).toEqual([2]);
  });
});

describe('parsePlayDetails', () => {
  test('reads the normalised details of a free app', () => {
    expect(parsePlayDetails(fixture('details-com.brightloop.streakly.html'), target)).toEqual({
      app_id: 'com.brightloop.streakly',
      app_store: 'google_play_store',
      title: 'Streakly: Habit Tracker',
      developer: 'Brightloop Labs',
      icon: 'https://play-lh.googleusercontent.com/qG3c9xKsX7YwBfJ0mN2vLr8tUeH5aZp1Dk4oWy6iTs9Rb0cVn3MxQl7EgAjF2hYu',
      rating: 4.61,
      ratings_count: 52341,
      country: 'us',
      store_url: target.storeUrl,
      bundle_id: 'com.brightloop.streakly',
      version: '5.12.1',
      price: 0,
      currency: 'USD',
      genre: 'Productivity',
      summary: 'Build habits that stick with daily streaks, reminders and widgets.',
      updated_at: '2024-06-03T07:33:20.000Z',
    });
  });

  test('turns price micros into the price of a paid app', () => {
    const d = parsePlayDetails(fixture('details-com.sproutworks.habitgarden.html'), { ...target, appId: 'com.sproutworks.habitgarden' });
    expect(d).toMatchObject({ title: 'Habit Garden: Grow Good Habits', price: 1.99, currency: 'USD', genre: 'Lifestyle' });
  });

  test('finds the details block by its RPC id even when the ds numbers shift', () => {
    const shifted = fixture('details-com.brightloop.streakly.html').replaceAll("'ds:5'", "'ds:7'").replaceAll('"ds:5"', '"ds:7"');
    expect(parsePlayDetails(shifted, target).title).toBe('Streakly: Habit Tracker');
  });

  test('falls back to the usual ds key when the page has no service request table', () => {
    const withoutTable = fixture('details-com.brightloop.streakly.html').replace(/var AF_dataServiceRequests = \{.*?\};/, '');
    expect(parsePlayDetails(withoutTable, target).rating).toBe(4.61);
  });

  test('takes the Ws7gDc block that has a title, not the first one (real pages add a rating-only block)', () => {
    const html = fixture('details-com.brightloop.streakly.html');
    const data = parseScriptData(html);
    // The fake serves the rating-only block first, like the pages that broke the by-order pick.
    expect(data.rpcByKey.get('ds:4')).toBe('Ws7gDc');
    expect(readPath(data.blocks.get('ds:4'), [1, 2, 0, 0])).toBeUndefined();
    expect(parsePlayDetails(html, target)).toMatchObject({ title: 'Streakly: Habit Tracker', rating: 4.61, ratings_count: 52341 });
  });

  test('still picks the block with the title when the two Ws7gDc blocks come the other way round', () => {
    const html = page([
      { key: 'ds:5', rpc: 'Ws7gDc', data: '[null,[null,null,[["Streakly"]]]]' },
      { key: 'ds:6', rpc: 'Ws7gDc', data: '[null,[null,null,[null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,[["4.6",4.6]]]]]' },
    ]);
    expect(parsePlayDetails(html, target).title).toBe('Streakly');
  });

  test('fails loudly, naming the block, when the details block is gone', () => {
    const html = fixture('details-com.brightloop.streakly.html').replaceAll("id:'Ws7gDc'", "id:'Zz9yXw'");
    expect(() => parsePlayDetails(html, target)).toThrow(PlayFormatError);
    expect(() => parsePlayDetails(html, target)).toThrow(/Ws7gDc/);
  });

  test('fails loudly, naming the path, when the title moved', () => {
    const html = page([{ key: 'ds:5', rpc: 'Ws7gDc', data: '[null,[null,null,[null,["Streakly"]]]]' }]);
    expect(() => parsePlayDetails(html, target)).toThrow(/no title at \[1, 2, 0, 0\]/);
  });

  test('reads the package name of a details page from its canonical link', () => {
    expect(detailsPageAppId(fixture('details-com.brightloop.streakly.html'))).toBe('com.brightloop.streakly');
  });
});

describe('parsePlaySearch', () => {
  test('reads the result list and skips the "About these results" notice', () => {
    const apps = parsePlaySearch(fixture('search-habit.html'));
    expect(apps.map((a) => a.app_id)).toEqual(['com.brightloop.streakly', 'com.sproutworks.habitgarden']);
    expect(apps[1]).toEqual({
      app_id: 'com.sproutworks.habitgarden',
      app_store: 'google_play_store',
      title: 'Habit Garden: Grow Good Habits',
      developer: 'Sproutworks',
      icon: 'https://play-lh.googleusercontent.com/Hg3Ar5De7Nn9Gg1Rr3Oo5Ww7Gg9Oo1Oo3Dd5Hh7Aa9Bb1Ii3Tt5Ss7Hh9Aa1Bb3',
      rating: 4.19,
      // The result list does not carry a ratings count.
      ratings_count: null,
    });
  });

  test('puts the top app card first, with its ratings count, without repeating it', () => {
    const apps = parsePlaySearch(fixture('search-streakly-top-card.html'));
    expect(apps.map((a) => a.app_id)).toEqual(['com.brightloop.streakly', 'com.sproutworks.habitgarden']);
    expect(apps[0]).toMatchObject({ title: 'Streakly: Habit Tracker', developer: 'Brightloop Labs', rating: 4.61, ratings_count: 52341 });
  });

  test('answers no results as an empty list', () => {
    expect(parsePlaySearch(fixture('search-no-results.html'))).toEqual([]);
  });

  test('accepts a search answered directly by one app page', () => {
    const apps = parsePlaySearch(fixture('details-com.brightloop.streakly.html'));
    expect(apps).toEqual([
      expect.objectContaining({ app_id: 'com.brightloop.streakly', title: 'Streakly: Habit Tracker', ratings_count: 52341 }),
    ]);
  });

  test('reads the top card id from its entry keyed "12", like real pages', () => {
    const data = parseScriptData(fixture('search-streakly-top-card.html'));
    const sections = readPath(data.blocks.get('ds:4'), [0, 1]) as unknown[];
    const top = sections.find((s) => readPath(s, [23]) != null);
    expect(readPath(top, [23, 16, 3, '12', 0, 0])).toBe('com.brightloop.streakly');
    expect(readPlaySearch(fixture('search-streakly-top-card.html')).problems).toEqual([]);
  });

  test('strict mode fails loudly when a known card yields no app', () => {
    // A top card whose id is not where PLAY_PATHS looks: the old parser dropped such a card without a word.
    const html = page([{ key: 'ds:4', rpc: 'lGYRle', data: JSON.stringify([[null, [[...Array(23).fill(null), [...Array(16).fill(null), [null, null, [['Moved App']]]]]]]]) }]);
    expect(readPlaySearch(html)).toEqual({ apps: [], problems: [expect.stringMatching(/top app card \(section 0\): no id at \[23, 16, 3, 12, 0, 0\]/)] });
    expect(() => parsePlaySearch(html, { strict: true })).toThrow(PlayFormatError);
    const heard: string[][] = [];
    expect(parsePlaySearch(html, { onProblems: (p) => heard.push(p) })).toEqual([]);
    expect(heard).toHaveLength(1);
  });

  test('fails loudly when the search block is missing', () => {
    expect(() => parsePlaySearch(fixture('search-clusters.html'))).toThrow(/no lGYRle \(ds:4\) data block/);
  });

  test('fails loudly when results exist but their ids moved', () => {
    const html = page([{ key: 'ds:4', rpc: 'lGYRle', data: '[[null,[[null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,[[[["moved.id"]]],["Search results"]]]]]]' }]);
    expect(() => parsePlaySearch(html)).toThrow(/1 results but none has an id at \[0, 0, 0\] and a title at \[0, 3\]/);
  });

  test('finds the link to the full result list on a cluster page', () => {
    expect(moreResultsLink(fixture('search-clusters.html'))).toMatch(
      /^\/store\/apps\/collection\/search_collection_more_results_cluster\?clp=[^&]+&gsr=/,
    );
    expect(moreResultsLink(fixture('search-habit.html'))).toBeNull();
  });
});

describe('real captured Play pages', () => {
  test('a search page for "panda" returns the exact-match card first, then the list', () => {
    const apps = parsePlaySearch(realFixture('googleplay-search-panda-exact-match.html'), { strict: true });
    expect(apps.map((a) => a.app_id)).toEqual(['com.pandaexpress.app', 'com.sinyee.babybus.restaurant']);
    expect(apps[0]).toEqual({
      app_id: 'com.pandaexpress.app',
      app_store: 'google_play_store',
      title: 'Panda Express',
      developer: 'Panda Restaurant Group, Inc.',
      icon: 'https://play-lh.googleusercontent.com/zAsMei2ck_WjsjJOqt7nGY6if-_0KByzcaEna1SJm0hgxp0duqq-eGonDEKpjnF_eiQdWPKUE51qDolkvYP7qw',
      rating: 4.6,
      ratings_count: 66991,
    });
    expect(apps[1]).toMatchObject({ title: "Little Panda's Restaurant", developer: 'BabyBus', rating: 4.19, ratings_count: null });
  });
});
