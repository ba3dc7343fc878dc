// stopwords-iso ships a JSON file and no types: its one export, lists of stop words by ISO 639-1 code.
declare module 'stopwords-iso' {
  const lists: Record<string, string[]>;
  export default lists;
}
