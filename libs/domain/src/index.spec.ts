import { placeholder } from './index';
describe('x', () => { it('works', () => { expect(placeholder).toBe('domain'); }); });
