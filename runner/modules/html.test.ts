import { describe, expect, it } from 'vitest';
import { type Element, parseHTML, type Selection } from './html';

const PAGE = `<!DOCTYPE html><html lang="en"><head><title>Test page</title></head><body>
<h1 id="top" class="big title" data-count="3" data-user-name="ann" data-flags='{"a":1}'>Hello</h1>
<ul><li>one</li><li class="x">two</li><li>three</li></ul>
<a href="/next">next</a>
<form id="f"><input name="user" value="ann"><input type="checkbox" name="ok" checked>
<select name="pick"><option value="1">a</option><option value="2" selected>b</option></select>
<textarea name="note">hi there</textarea><button name="go">Go</button></form>
</body></html>`;

describe('k6/html', () => {
  const doc = parseHTML(PAGE);

  it('finds, reads text and attributes as k6 documents', () => {
    expect(doc.find('head title').text()).toBe('Test page');
    expect(doc.find('html').attr('lang')).toBe('en');
    expect(doc.find('h1').attr('missing')).toBeUndefined();
    expect(doc.find('h1').attr('missing', 'dflt')).toBe('dflt');
    expect(doc.find('li').size()).toBe(3);
    expect(doc.find('li').eq(1).text()).toBe('two');
    expect(doc.find('li').last().text()).toBe('three');
    expect(doc.find('li.x').next().text()).toBe('three');
    expect(doc.find('li.x').prevAll().size()).toBe(1);
    expect(doc.find('li').filter('.x').text()).toBe('two');
    expect(doc.find('li').is('.x')).toBe(true);
    expect(doc.find('li').not('.x').size()).toBe(2);
    expect(doc.find('ul').children().size()).toBe(3);
    expect(doc.find('li.x').closest('ul').size()).toBe(1);
    expect(doc.find('li').slice(1).size()).toBe(2);
    expect(doc.find('ul').html()).toBe('<li>one</li><li class="x">two</li><li>three</li>');
    expect(doc.find('nothing').html()).toBeUndefined();
  });

  it('map() gets Selections, each() gets Elements, get() Elements', () => {
    expect(doc.find('li').map((_: number, s: Selection) => s.text())).toEqual(['one', 'two', 'three']);
    const names: string[] = [];
    doc.find('li').each((i: number, el: Element) => {
      names.push(`${i}:${el.nodeName()}:${el.textContent()}`);
    });
    expect(names).toEqual(['0:li:one', '1:li:two', '2:li:three']);
    const h1 = doc.find('h1').get(0) as Element;
    expect([h1.id(), h1.classList(), h1.nodeType(), h1.hasAttribute('data-count')]).toEqual([
      'top',
      ['big', 'title'],
      1,
      true,
    ]);
    expect((doc.find('li').get() as Element[]).length).toBe(3);
    expect(doc.find('li').get(5)).toBeUndefined();
    expect(doc.find('li').toArray()[2].text()).toBe('three');
  });

  it('data() converts data-* attributes as jQuery does', () => {
    expect(doc.find('h1').data()).toEqual({ count: 3, userName: 'ann', flags: { a: 1 } });
    expect(doc.find('h1').data('userName')).toBe('ann');
  });

  it('val() and form serialisation', () => {
    expect(doc.find('input[name=user]').val()).toBe('ann');
    expect(doc.find('input[name=ok]').val()).toBe('on');
    expect(doc.find('select').val()).toBe('2');
    expect(doc.find('textarea').val()).toBe('hi there');
    expect(doc.find('form').serializeObject()).toEqual({
      user: 'ann',
      ok: 'on',
      pick: '2',
      note: 'hi there',
    });
    expect(doc.find('form').serialize()).toBe('user=ann&ok=on&pick=2&note=hi+there');
  });

  it('filter/is/not callbacks get Selections, single() the first match, as k6', () => {
    expect(
      doc
        .find('li')
        .filter((_: number, s: Selection) => s.text() === 'two')
        .size(),
    ).toBe(1);
    expect(doc.find('li').is((_: number, s: Selection) => s.text() === 'three')).toBe(true);
    expect(
      doc
        .find('li')
        .not((_: number, s: Selection) => s.text() === 'one')
        .size(),
    ).toBe(2);
    expect(doc.single('li').text()).toBe('one');
  });

  it("elements have k6's element-specific members: an anchor's URL parts, attributes by kind", () => {
    const a = parseHTML(
      '<a href="http://user:pw@example.com:80/p?q=1#h" rel="prev next" target="_self">6</a>',
    )
      .find('a')
      .get(0) as Element & Record<string, () => unknown>;
    expect([a.host(), a.hostname(), a.port(), a.protocol(), a.pathname(), a.search(), a.hash()]).toEqual([
      'example.com',
      'example.com',
      '',
      'http',
      '/p',
      '?q=1',
      '#h',
    ]);
    expect([a.username(), a.password(), a.relList(), a.target(), a.text()]).toEqual([
      'user',
      'pw',
      ['prev', 'next'],
      '_self',
      '6',
    ]);
    const input = doc.find('input[name=ok]').get(0) as Element & Record<string, () => unknown>;
    expect([input.checked(), input.disabled(), input.name(), input.type()]).toEqual([
      true,
      false,
      'ok',
      'checkbox',
    ]);
    const rel = parseHTML('<a href="/next">n</a>', 'https://h.test/dir/page').find('a').get(0) as Element &
      Record<string, () => unknown>;
    expect(rel.href()).toBe('https://h.test/next');
  });
});
