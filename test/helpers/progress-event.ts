/** Events for the progress reporter's tests, which hand it the events and a clock directly. */

/** A finished case's event, the fields progress does not read filled in. */
export const DONE = {
  run: 0,
  index: 0,
  suite: 's',
  params: {},
  testCase: { id: 'c', contentId: 'c', source: null, data: {}, meta: {}, index: 0 },
  replayed: false,
};
