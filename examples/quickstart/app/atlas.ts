/** A stand-in for a model's knowledge, so the quickstart runs offline with no API key. */
export const CAPITALS: Record<string, string> = {
  France: 'Paris',
  Germany: 'Berlin',
  Japan: 'Tokyo',
  Australia: 'Canberra',
  Canada: 'Ottawa',
  Brazil: 'Brasília',
  Kenya: 'Nairobi',
  Peru: 'Lima',
  'New Zealand': 'Wellington',
  Morocco: 'Rabat',
};

/** The mistakes a smaller model makes: the biggest city instead of the capital. */
export const SMALL_MODEL_MISTAKES: Record<string, string> = {
  Australia: 'Sydney',
};
