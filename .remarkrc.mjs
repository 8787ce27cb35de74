// `npm run lint:links`: every relative link and anchor in the docs points at a file or heading
// that exists. Links to this repository on GitHub (the README's absolute links, which also work
// on the npm page) are checked against the local files; nothing goes over the network.
import remarkValidateLinks from 'remark-validate-links';

export default {
  plugins: [[remarkValidateLinks, { repository: 'https://github.com/evalgate/evalgate' }]],
};
