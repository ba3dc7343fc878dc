/**
 * Explicit praise and explicit complaint in app-store reviews, per language: the words and phrases people use to say
 * an app is good ("love it", "works perfectly", "recommend") or that it fails them ("crashes on open", "cannot log
 * in", "keeps freezing", "waste of money", "too many ads"). The general-purpose dictionaries of nlp.js do not know this
 * vocabulary — the English Senticon scores "crash" +0.38 and "time" +0.38 — which is why 1★ complaints read as
 * leaning positive (sentiment.ts). The lists are written from how app reviews are worded in each language (store
 * vocabulary: crash, freeze, log in, ads, refund, subscription), not from any evaluation set's misses.
 *
 * A cue is a regular expression on the lower-cased text, matched at word edges; a pattern may end in `\p{L}*` to take
 * any ending. Where cues overlap, the longest wins ("doesn't work" over "work", "fena değil" over "değil"). A
 * negation word up to two words before a cue, in the same clause, turns it around ("never crashes", "no ads", "not
 * good"), and so does one right after it in languages that negate after the word (Turkish "değil", "yok").
 */

/**
 * `lukewarm`: what people write for "it is all right, no more" ("does the job", "nothing special"): on a 3★ review it
 * outweighs mild praise (neutral, not positive).
 */
export type Cues = { praise: string[]; complaint: string[]; lukewarm?: string[]; before: string[]; after?: string[] };

/** `\p{L}*`: any ending. */
const E = '\\p{L}*';

export const CUES: Record<string, Cues> = {
  en: {
    praise: [
      `lov(e|es|ed|ing)`, 'great', 'excellent', 'amazing', 'awesome', 'fantastic', `perfect${E}`, 'wonderful', 'brilliant',
      'best', 'good', 'nice', 'beautiful', 'lovely', 'superb', 'outstanding', 'helpful', 'useful', 'handy', 'easy', 'intuitive',
      'clean', `smooth${E}`, 'fast', 'quick', 'reliable', `flawless${E}`, `recommend${E}`, 'thanks', 'thank you', 'worth (it|every)',
      'life ?saver', 'impressed', 'well done', 'works (well|great|fine|perfectly|like a charm)', 'just works', `favou?rite${E}`,
      `enjoy${E}`, 'happy', 'glad', 'solid', 'cool', 'fun', 'pleasant', 'accurate', '(5|five) stars', 'not bad', 'no ads',
      'does (exactly )?what i (need|needed|wanted)', 'keeps? me motivated', 'saved me', 'a must',
      '👍', '😍', '❤️', '🔥', '🙌',
    ],
    complaint: [
      `crash${E}`, `freez${E}`, 'froze', `lag${E}`, `glitch${E}`, 'bugs?', 'buggy', 'broken', 'broke', 'breaks', `error${E}`,
      `fail${E}`, 'useless', 'worthless', `wast${E}`, 'scam', 'rip[- ]?off', `refund${E}`, 'terrible', 'horrible', 'awful',
      'worst', 'bad', 'worse', 'poor', `annoy${E}`, `frustrat${E}`, `disappoint${E}`, 'unusable', 'unbearable', 'ridiculous',
      'garbage', 'trash', 'junk', 'rubbish', 'hate', 'slow', 'slower', 'sluggish', 'drains?', 'draining', 'ads', 'adverts?',
      'spam', 'overpriced', '(too|so) expensive', 'charg(ed|ing|es) me', 'charged', `uninstall${E}`, 'lost', 'loses', 'losing',
      'gone', 'missing', 'not working', "(doesn't|does not|don't|won't|will not|didn't|isn't|wasn't) (even )?(work|open|load|start|sync|let|save|connect|respond|show)",
      'stopped working', "(can't|cannot|can not|couldn't|unable to) (even )?(log|sign|use|open|login|access|get|load|connect|save|play|see|log ?in)",
      `keeps? (on )?(crash|freez|clos|stopp|restart|ask|reset|kick|log|los|drop|buffer|load)${E}`, '(black|blank|white) screen',
      'stuck', 'forever', '(logs?|logging|kicks?|kicked) me out', 'logged out', 'avoid', 'stay away', 'sucks?', 'please fix',
      'fix (it|this)', 'no longer', 'anymore', 'bring back', 'downhill', 'confusing', 'harder', 'hard to', 'difficult',
      'mess', `used to (be (so |really |very )?\\p{L}+|love|like|enjoy)`, 'could be (better|faster)', 'too many', 'ignor(es|ed|ing)', 'never (answer|repl|respond)\\p{L}*',
      'not (worth|fun|good|great)', 'paywall', 'pricey',
    ],
    lukewarm: ['nothing special', 'does the job', "it'?s (fine|ok|okay)", 'it is (fine|ok|okay)', 'ok', 'okay', 'average', 'meh', 'so-so', 'does what it (says|promises|should)', 'does the basics', 'nothing more'],
    before: ['not', 'no', 'never', "n't", 'without', 'hardly', 'nothing', 'none', 'nor', "isn't", "doesn't", "don't", "didn't", "wasn't", "won't", 'zero'],
  },
  es: {
    praise: [
      `encant${E}`, 'excelente', 'genial', `perfect${E}`, `maravillos${E}`, 'increíble', 'buen[oa]?s?', 'mejor', 'útil',
      'fácil', `intuitiv${E}`, `rápid${E}`, `rapidísim${E}`, `recomiend${E}`, 'recomendable', 'gracias', `fantástic${E}`,
      'me gusta', 'funciona (bien|perfecto|genial)', `cómod${E}`, 'cumple', 'sin anuncios', 'sin publicidad',
    ],
    complaint: [
      'se (cierra|cuelga|congela|traba|bloquea)', 'congela', 'no (funciona|abre|carga|sirve|me deja|puedo|va)', `error${E}`,
      `fall(o|os|a)`, `lent${E}`, `pésim${E}`, 'mal[oa]?s?', 'horrible', 'terrible', 'basura', 'estafa', 'inútil', 'desastre',
      `decepcion${E}`, 'publicidad', 'anuncios', 'dinero tirado', 'pérdida de (dinero|tiempo)', `cobr(aron|an|a)${E}`,
      `reembols${E}`, 'peor', `molest${E}`, 'bugs?', `pierd${E}`, 'perdí', 'imposible', 'demasiad[oa]s?', 'excesiv[oa]',
      'ya no', 'no la descarguen', 'nadie responde', 'antes era (muy )?\\p{L}+', 'una pena', 'tarda',
    ],
    lukewarm: ['nada especial', 'cumple su función', 'normal', 'regular', 'ni fu ni fa', 'está bien', 'sin más'],
    before: ['no', 'nunca', 'sin', 'ni', 'nada', 'tampoco'],
  },
  de: {
    praise: [
      'super', `toll${E}`, 'klasse', `perfekt${E}`, `gut${E}`, 'prima', 'genial', `hervorragend${E}`, `ausgezeichnet${E}`,
      `empfehl${E}`, 'empfehlung', 'liebe', `praktisch${E}`, `zuverlässig${E}`, 'schnell', `schön${E}`, 'danke', `hilfreich${E}`,
      `nützlich${E}`, 'top', 'spitze', 'beste[n]?', 'einfach zu bedienen', 'übersichtlich', 'ohne werbung',
    ],
    complaint: [
      `stürzt${E}`, `absturz${E}`, `abstürz${E}`, 'hängt', 'friert', 'funktioniert (nicht|nichts|kaum)', 'geht nicht', 'nicht mehr',
      'kann (mich |sie |es |die app )?(nicht|nie)', `fehler${E}`, 'langsam', `schlecht${E}`, 'schlimm', `katastroph${E}`,
      'unbrauchbar', 'nutzlos', 'nervt', 'nervig', `ärger${E}`, 'werbung', 'abzocke', 'geldverschwendung', `enttäusch${E}`,
      'mies', 'müll', 'schrott', 'unübersichtlich', 'umständlich', 'verloren', 'gelöscht', 'leider', 'zu teuer', 'betrug',
      'nichts funktioniert', 'fehlt', 'früher (war )?(sie |es |die app )?(mal )?(so )?\\p{L}+', 'ewig', 'schnell leer',
    ],
    lukewarm: ['nichts besonderes', 'ganz okay', 'ganz ok', 'okay', 'ok', 'geht so', `mittelmäßig${E}`, `durchschnittlich${E}`, 'mehr nicht'],
    before: ['nicht', 'kein', 'keine', 'keinen', 'keiner', 'nie', 'niemals', 'ohne'],
  },
  fr: {
    praise: [
      `génial${E}`, 'super', `excellent${E}`, `parfait${E}`, 'top', 'bien', 'bon(ne)?', `ador${E}`, "j'aime", 'aime', 'pratique',
      'simple', 'rapide', 'efficace', 'facile', `intuiti${E}`, `recommand${E}`, 'merci', 'formidable', 'magnifique',
      'incroyable', 'utile', 'agréable', `meilleur${E}`, 'sans pub(s|licité)?',
    ],
    complaint: [
      `plant${E}`, `crash${E}`, `bug${E}`, `beug${E}`, `bloqu${E}`, 'fige', 'figée?', 'ne (marche|fonctionne) (plus|pas)',
      'impossible', `lent${E}`, 'nulle?', 'horrible', `catastroph${E}`, `inutil${E}`, 'arnaque', 'pubs?', `publicité${E}`,
      `déçu${E}`, `décevant${E}`, 'dommage', 'pire', `mauvais${E}`, 'perdu', `rembours${E}`, 'à fuir', 'argent jeté',
      'énervant', 'insupportable', 'trop cher', `manqu${E}`, `erreur${E}`, 'trop de', 'ne marche', 'ne fonctionne',
    ],
    lukewarm: ['sans plus', 'moyen(ne)?', 'correct(e)?', 'bof', 'rien de spécial', 'fait le travail', 'ça va'],
    before: ['pas', 'jamais', 'sans', 'aucun', 'aucune', 'ni'],
  },
  it: {
    praise: [
      `ottim${E}`, `fantastic${E}`, `perfett${E}`, 'bell[ao]', `bellissim${E}`, 'buon[ao]?', 'molto bene', `comod${E}`, 'utile',
      'facile', 'semplice', 'veloce', `consigli${E}`, 'grazie', 'adoro', 'la adoro', 'eccellente', `stupend${E}`,
      'funziona bene', 'top', 'super', 'senza pubblicità',
    ],
    complaint: [
      'si (blocca|chiude|impalla)', `blocc${E}`, `crash${E}`, 'non (funziona|riesco|si apre|parte|carica|arrivano|va)',
      `lent${E}`, `pessim${E}`, 'terribile', 'orribile', 'schifo', `inutil${E}`, 'pubblicità', 'soldi buttati', 'truffa',
      `delu${E}`, `error${E}`, 'bug', `peggi${E}`, 'pers[oi]', 'troppa', 'troppi', 'non più', 'prima era (molto )?\\p{L}+',
    ],
    lukewarm: ['niente di speciale', 'nella media', 'fa il suo lavoro', 'normale', 'così così'],
    before: ['non', 'mai', 'senza', 'nessun', 'nessuna', 'né'],
  },
  pt: {
    praise: [
      `ótim${E}`, 'excelente', `perfeit${E}`, `maravilhos${E}`, 'bom', 'boa', `gost${E}`, 'adoro', 'adorei', 'amo', 'amei',
      'recomendo', 'fácil', 'prático', 'rápido', 'útil', `obrigad${E}`, 'incrível', `lind${E}`, 'bonito', 'melhor',
      'sem anúncios',
    ],
    complaint: [
      `trav${E}`, 'fecha sozinho', 'não (funciona|abre|carrega|consigo|entra|sincroniza)', `lent${E}`, `péssim${E}`, 'horrível',
      'ruim', 'terrível', 'lixo', 'inútil', `anúncio${E}`, `propaganda${E}`, 'dinheiro jogado fora', 'golpe', `decepcion${E}`,
      `erro${E}`, `bug${E}`, `perd${E}`, 'pior', `atras${E}`, 'já foi melhor', 'cheio de', 'não abre mais', 'já foi (muito )?\\p{L}+',
    ],
    lukewarm: ['nada de especial', 'nada demais', 'normal', 'mais ou menos', 'razoável', 'ok'],
    before: ['não', 'nunca', 'sem', 'nem', 'nenhum', 'nenhuma'],
  },
  nl: {
    praise: [
      `geweldig${E}`, 'top', 'super', 'perfect', `handig${E}`, `goed${E}`, 'prima', `fijn${E}`, `mooi${E}`, 'overzichtelijk',
      'makkelijk', 'eenvoudig', 'snel', 'aanrader', 'aan te raden', 'aanbevolen', 'bedankt', 'dank', 'uitstekend',
      `fantastisch${E}`, `leuk${E}`,
    ],
    complaint: [
      'crasht', `crash${E}`, 'loopt (steeds |vaak |telkens )?vast', 'vastlopen', 'hangt', 'bevriest', 'werkt niet', 'niet meer',
      'kan (ik )?(niet|nooit)', 'traag', 'langzaam', `slecht${E}`, 'waardeloos', 'nutteloos', 'irritant', `reclame${E}`,
      'zonde', 'oplichterij', 'teleurgesteld', `teleurstell${E}`, `fout${E}`, `bug${E}`, 'kwijt', 'verloren', 'frustrerend',
      'jammer', 'onbruikbaar', 'te veel', 'veel te',
    ],
    lukewarm: ['niets bijzonders', 'gaat wel', 'doet wat het moet doen', 'oké', 'ok', 'gemiddeld'],
    before: ['niet', 'geen', 'nooit', 'zonder'],
  },
  ru: {
    praise: [
      `отличн${E}`, `хорош${E}`, 'супер', `прекрасн${E}`, `замечательн${E}`, `удобн${E}`, `лучш${E}`, `рекоменд${E}`, 'спасибо',
      `классн${E}`, `полезн${E}`, `быстр${E}`, `понятн${E}`, 'нравится', 'люблю', `идеальн${E}`, `шикарн${E}`,
    ],
    complaint: [
      `вылет${E}`, `завис${E}`, `тормоз${E}`, `глюч${E}`, `глюк${E}`, 'не (работает|могу|открывается|запускается|сохраняет|грузит)',
      `ошибк${E}`, `ужасн${E}`, `плох${E}`, 'отстой', `медленн${E}`, `реклам${E}`, 'деньги на ветер', 'развод', `обман${E}`,
      `бесполезн${E}`, 'невозможно', `разочарова${E}`, `неудобн${E}`, `баг${E}`, 'кошмар', `худш${E}`, 'слишком',
    ],
    lukewarm: ['ничего особенного', `нормальн${E}`, 'нормально', 'средне', 'так себе'],
    before: ['не', 'нет', 'без', 'никогда', 'ни'],
  },
  pl: {
    praise: [
      `świetn${E}`, 'super', `rewelac${E}`, `doskonał${E}`, `idealn${E}`, `dobr${E}`, 'polecam', `pomocn${E}`, `przydatn${E}`,
      `prost${E}`, `szybk${E}`, 'dziękuję', 'dzięki', `wspaniał${E}`, `genialn${E}`, `fajn${E}`, `niezł${E}`, `najlepsz${E}`,
      `wygodn${E}`,
    ],
    complaint: [
      `zawiesz${E}`, `zawiesza${E}`, `zacina${E}`, 'wyłącza się', `crash${E}`, 'nie (działa|mogę|da się|otwiera|ładuje)',
      `błąd${E}`, `błęd${E}`, 'wolno', 'woln[aey]', `słab${E}`, `fataln${E}`, `beznadziejn${E}`, `okropn${E}`,
      'strata (pieniędzy|czasu)', `reklam${E}`, `oszust${E}`, `rozczarow${E}`, 'brakuje', `bezużyteczn${E}`, `tragiczn${E}`,
      'gorzej', `najgorsz${E}`, 'za dużo',
    ],
    lukewarm: ['nic specjalnego', `przeciętn${E}`, 'ok', 'w porządku', 'może być'],
    before: ['nie', 'bez', 'nigdy', 'żaden', 'żadna', 'żadnych', 'ani'],
  },
  tr: {
    praise: [
      'harika', 'mükemmel', 'süper', 'güzel', 'iyi', 'kullanışlı', `tavsiye${E}`, 'öneririm', `teşekkür${E}`, `sağol${E}`,
      'başarılı', 'muhteşem', 'kolay', 'hızlı', 'beğendim', 'seviyorum', 'bayıldım', 'fena değil', 'en iyi',
    ],
    complaint: [
      'kapanıyor', 'çöküyor', 'donuyor', `donma${E}`, 'dondu', 'çalışmıyor', 'açılmıyor', `\\p{L}+(am|em)ıyorum`,
      `\\p{L}+(am|em)iyorum`, `hata${E}`, 'yavaş', 'kötü', 'berbat', 'rezalet', 'saçma', `reklam${E}`, `dolandırıcı${E}`,
      'boşa', 'işe yaramaz', 'sinir bozucu', 'hayal kırıklığı', 'bozuk', 'çok fazla',
    ],
    lukewarm: ['idare eder', 'normal', 'ortalama', 'eh işte'],
    before: [],
    after: ['değil', 'yok'],
  },
  sv: {
    praise: [
      'toppen', 'bra', 'jättebra', 'superbra', 'perfekt', `fantastisk${E}`, 'utmärkt', `smidig${E}`, 'enkel', 'lätt', 'snabb',
      `rekommender${E}`, 'tack', 'älskar', 'grym', 'underbar', 'suverän', 'härlig', 'användbar', `bäst${E}`,
    ],
    complaint: [
      'kraschar', `krasch${E}`, 'fryser', 'hänger sig', 'laggar', 'fungerar inte', 'funkar inte', 'går inte', 'kan inte',
      `värdelös${E}`, `dålig${E}`, `usel${E}`, 'skräp', `långsam${E}`, `reklam${E}`, 'slöseri', 'bedrägeri', 'irriterande',
      `besvik${E}`, `buggig${E}`, 'loggar ut', 'tyvärr', 'sämre', 'sämst', 'för mycket',
    ],
    lukewarm: ['helt okej', 'okej', 'inget speciellt', 'sådär'],
    before: ['inte', 'ej', 'aldrig', 'utan', 'ingen', 'inga', 'inget'],
  },
  da: {
    praise: [
      'fantastisk', 'super', 'god', 'godt', 'gode', 'fin', 'fint', 'perfekt', 'fremragende', 'nem', 'hurtig', 'overskuelig',
      `anbefal${E}`, 'tak', 'elsker', 'genial', 'dejlig', 'brugbar', `bedst${E}`, 'glimrende',
    ],
    complaint: [
      'lukker ned', 'crasher', `crash${E}`, 'fryser', 'hænger', 'virker ikke', 'kan ikke', `langsom${E}`, `dårlig${E}`,
      `elendig${E}`, 'ubrugelig', 'værdiløs', `reklam${E}`, 'spild', 'snyd', 'irriterende', `skuffe${E}`, `fejl${E}`, 'mister',
      'mistet', 'desværre', 'værre', 'værst', 'for mange', 'kan slet ikke',
    ],
    lukewarm: ['ok', 'okay', 'intet særligt', 'ikke noget særligt'],
    before: ['ikke', 'aldrig', 'uden', 'ingen', 'intet'],
  },
  id: {
    praise: [
      'bagus', 'mantap', 'keren', 'hebat', 'luar biasa', 'sempurna', 'mudah', 'membantu', 'bermanfaat', 'berguna', 'cepat',
      'suka', 'terima kasih', 'makasih', 'rekomendasi', 'recommended', 'top', 'terbaik', 'nyaman', 'lengkap',
    ],
    complaint: [
      'keluar sendiri', 'force close', '(tidak|gak|nggak|ga|tak) (bisa|berfungsi|jalan)', 'error', 'macet', 'lambat', 'lemot',
      'lag', 'crash', 'jelek', 'buruk', 'parah', 'kecewa', 'mengecewakan', `iklan${E}`, 'buang-buang', `penipu${E}`, 'sampah',
      'hilang', 'ribet', 'menyebalkan', 'susah', 'terlalu banyak', 'langsung keluar',
    ],
    lukewarm: ['lumayan', 'biasa saja', 'biasa aja', 'standar', 'cukup'],
    before: ['tidak', 'tak', 'gak', 'nggak', 'ga', 'bukan', 'tanpa', 'kurang', 'belum'],
  },
};
/** Malay and Indonesian are one language's two standards: a review the detector reads as Malay uses the Indonesian lists. */
export const CUE_LANGUAGE: Record<string, string> = { ms: 'id' };

type Polarity = 'praise' | 'complaint' | 'lukewarm';
type Compiled = { re: RegExp; polarity: Polarity[]; before: Set<string>; after: Set<string> };
const compiled = new Map<string, Compiled | null>();

function compile(language: string): Compiled | null {
  if (compiled.has(language)) return compiled.get(language)!;
  const cues = CUES[CUE_LANGUAGE[language] ?? language];
  let out: Compiled | null = null;
  if (cues) {
    // One alternation, longest pattern first, each cue its own capturing group (its inner groups made
    // non-capturing): the engine takes the leftmost match and, at one place, the first alternative that matches, so
    // a phrase wins over the word inside it whichever list each is in ("schnell leer" over "schnell").
    const all = [
      ...cues.praise.map((cue) => ({ cue, polarity: 'praise' as const })),
      ...cues.complaint.map((cue) => ({ cue, polarity: 'complaint' as const })),
      ...(cues.lukewarm ?? []).map((cue) => ({ cue, polarity: 'lukewarm' as const })),
    ].sort((a, b) => b.cue.length - a.cue.length);
    const alternatives = all.map(({ cue }) => `(${cue.replace(/\((?!\?)/g, '(?:')})`).join('|');
    const re = new RegExp(`(?<![\\p{L}\\p{N}'])(?:${alternatives})(?![\\p{L}\\p{N}])`, 'giu');
    out = { re, polarity: all.map((a) => a.polarity), before: new Set(cues.before), after: new Set(cues.after ?? []) };
  }
  compiled.set(language, out);
  return out;
}

const WORD = /[\p{L}\p{N}']+/gu;

/** The explicit praise and complaint cues in one sentence (each after negation), or null without lists for the language. */
export function sentenceCues(sentence: string, language: string): { praise: number; complaint: number; lukewarm: number } | null {
  const c = compile(language);
  if (!c) return null;
  const text = sentence.toLowerCase().replace(/[’‘]/g, "'");
  let praise = 0;
  let complaint = 0;
  let lukewarm = 0;
  for (const m of text.matchAll(c.re)) {
    const polarity = c.polarity[m.findIndex((g, i) => i > 0 && g !== undefined) - 1];
    if (polarity === 'lukewarm') {
      lukewarm++;
      continue;
    }
    let positive = polarity === 'praise';
    // Negation: up to two words before the cue in the same clause (no comma or dash between), or right after it.
    const clause = text.slice(0, m.index).split(/[,:;–—]|\s-\s/).pop() ?? '';
    const before = (clause.match(WORD) ?? []).slice(-2);
    const after = (text.slice(m.index + m[0].length).match(WORD) ?? []).slice(0, 1);
    const negated = before.some((w) => c.before.has(w) || w.endsWith("n't")) || after.some((w) => c.after.has(w));
    if (negated) positive = !positive;
    if (positive) praise++;
    else complaint++;
  }
  return { praise, complaint, lukewarm };
}
