// The 4-class sentiment rule (server/ai/enrich/sentiment.ts, cues.ts): mixed only with explicit praise and an explicit
// complaint, the stars' direction when the text says neither, the same in every language with cues. Each complaint
// below read as "mixed" under the rule before 2026-12-02 (the general dictionaries scored "crash", "open", "use",
// "money" as praise), issue 31.
import { describe, expect, it } from 'vitest';
import { sentenceCues } from '@/server/ai/enrich/cues';
import { classifySentiment } from '@/server/ai/enrich/sentiment';

const cls = (text: string, rating: number, language: string | null) => classifySentiment(text, rating, language).sentiment;

describe('a 1–2★ complaint is negative, not mixed', () => {
  it.each([
    ['Crashes on open.\nCrashes on open every single time… cannot use it at all.', 1, 'en'],
    ["Can't log in.\nCannot log in since the update. It just spins and then says try again later.", 1, 'en'],
    ['Waste of money. Paid for the year and half the features don’t work.', 1, 'en'],
    ['Keeps freezing on the home screen, have to force close it every time.', 1, 'en'],
    ['Worst update ever. Bring back the old layout.', 1, 'en'],
    ['Takes forever to load and the sync fails half the time.', 2, 'en'],
    ['Se cierra nada más abrirla. No puedo usarla para nada.', 1, 'es'],
    ['L’application plante à chaque ouverture depuis la mise à jour. Nul.', 1, 'fr'],
    ['Crasht bij het opstarten. Ik kan de app helemaal niet gebruiken.', 1, 'nl'],
    ['Постоянно зависает и не сохраняет данные.', 2, 'ru'],
    ['Muito lento e cheio de anúncios. Já foi melhor.', 2, 'pt'],
  ])('%s (%i★, %s)', (text, rating, language) => {
    expect(cls(text, rating, language)).toBe('negative');
  });
});

describe('mixed needs explicit praise and an explicit complaint', () => {
  it('reads both, whatever the stars', () => {
    expect(cls('Love the design but it crashes when I upload photos.', 4, 'en')).toBe('mixed');
    expect(cls('The design is beautiful, but now it crashes every time I open a note.', 1, 'en')).toBe('mixed');
    expect(cls('Tolle App, aber die Werbung nervt inzwischen ziemlich.', 4, 'de')).toBe('mixed');
    expect(cls('Fena değil ama çok reklam var.', 3, 'tr')).toBe('mixed');
  });

  it('reads a praise that turns at "but" to words that are no cue as a reservation', () => {
    expect(cls('Handy app, although the search could be smarter.', 4, 'en')).toBe('mixed');
  });

  it('does not read "used to love it" as praise', () => {
    expect(cls('I used to like this app but it is unbearable now.', 2, 'en')).toBe('negative');
    expect(cls('Antes era rápida, ahora tarda muchísimo en abrir. Una pena.', 2, 'es')).toBe('negative');
  });
});

describe('the stars guide when the text is weak', () => {
  it('a 5★ praise with a word the dictionaries call negative stays positive', () => {
    expect(cls('Clean, no ads, does one thing and does it well. Recommended.', 5, 'en')).toBe('positive');
    expect(cls('Had a problem with my account and the team fixed it within an hour. Impressed.', 5, 'en')).toBe('positive');
    expect(cls('La mejor aplicación para organizar mis gastos. Muy fácil de usar.', 5, 'es')).toBe('positive');
  });

  it('text without praise or complaint takes the stars’ direction', () => {
    expect(cls('I updated to version 4.2 today. The menu moved to the bottom of the screen.', 3, 'en')).toBe('neutral');
    expect(cls('¿Cómo se cambia el idioma de la aplicación? No lo encuentro en el menú.', 3, 'es')).toBe('neutral');
    expect(cls('Reinstalled twice, same thing.', 1, 'en')).toBe('negative');
    expect(cls('Downloaded it for my trip.', 5, 'en')).toBe('positive');
  });

  it('on 3★ "does the job, nothing special" is neutral', () => {
    expect(cls('It does what it says. Nothing special.', 3, 'en')).toBe('neutral');
    expect(cls('Ganz okay, aber nichts Besonderes.', 3, 'de')).toBe('neutral');
    expect(cls('Нормальное приложение, ничего особенного.', 3, 'ru')).toBe('neutral');
  });

  it('explicit complaint on 4–5★ or praise on 1–2★ is mixed (the stars are the other side)', () => {
    expect(cls('Please fix the sync, it keeps failing.', 5, 'en')).toBe('mixed');
    expect(cls('Great app!', 1, 'en')).toBe('mixed');
  });
});

describe('cues', () => {
  it('a negation before a cue turns it around, in the same clause only', () => {
    expect(sentenceCues('it never crashes', 'en')).toMatchObject({ praise: 1, complaint: 0 });
    expect(sentenceCues('no ads at all', 'en')).toMatchObject({ praise: 1, complaint: 0 });
    expect(sentenceCues('not good', 'en')).toMatchObject({ praise: 0, complaint: 1 });
    expect(sentenceCues('senza pubblicità', 'it')).toMatchObject({ praise: 1, complaint: 0 });
    expect(sentenceCues('не нравится', 'ru')).toMatchObject({ praise: 0, complaint: 1 });
    expect(sentenceCues('reklam yok', 'tr')).toMatchObject({ praise: 1, complaint: 0 });
    expect(sentenceCues('no, it crashes', 'en')).toMatchObject({ praise: 0, complaint: 1 });
  });

  it('a phrase wins over the word inside it', () => {
    expect(sentenceCues('der Akku ist schnell leer', 'de')).toMatchObject({ praise: 0, complaint: 1 });
    expect(sentenceCues('works perfectly', 'en')).toMatchObject({ praise: 1, complaint: 0 });
  });

  it('every language with a dictionary has cues; Malay text uses the Indonesian ones', () => {
    for (const language of ['da', 'de', 'en', 'es', 'fr', 'id', 'it', 'nl', 'pl', 'pt', 'ru', 'sv', 'tr']) expect(sentenceCues('', language)).not.toBeNull();
    expect(cls('Aplikasi langsung keluar saat dibuka. Tidak bisa dipakai sama sekali.', 1, 'ms')).toBe('negative');
    expect(cls('Aplikasinya bagus, tapi iklannya terlalu banyak.', 4, 'ms')).toBe('mixed');
    expect(sentenceCues('すごい', 'ja')).toBeNull();
  });
});
