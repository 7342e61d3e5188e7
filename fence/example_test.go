package fence_test

import (
	"errors"
	"fmt"

	"github.com/onetool-dev/onetool/fence"
)

func ExampleStrip() {
	// A typical model reply: the tool name as a prefix, a fenced block with a
	// language tag, tab indentation, and a remark after the fence.
	reply := "__run\n```python\n\tx = 6\n\tif x:\n\t\tprint(x * 7)\n```\nThis prints 42."
	code, err := fence.Strip(reply)
	if err != nil {
		fmt.Println("Error:", err)
		return
	}
	fmt.Println(code)

	_, err = fence.Strip("!onetool print(1)")
	fmt.Println(errors.Is(err, fence.ErrBangPrefix))
	// Output:
	// x = 6
	// if x:
	//     print(x * 7)
	// true
}
