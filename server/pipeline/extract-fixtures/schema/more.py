from comfy_api.latest import IO
import comfy_api.latest as comfy_io

MyType = IO.Custom("MY_TYPE")


class MakeThing(IO.ComfyNode):
    @classmethod
    def define_schema(cls):
        return IO.Schema(
            node_id="MakeThing",
            category="demo",
            inputs=[
                IO.Int.Input("count", default=1, min=1, max=0xFFFFFFFFFFFFFFFF, control_after_generate=True),
                IO.String.Input("label", multiline=True, dynamic_prompts=False),
            ],
            outputs=[MyType.Output("thing"), IO.AnyType.Output()],
            is_deprecated=True,
        )


class UseThing(comfy_io.io.ComfyNode):
    @classmethod
    def define_schema(cls):
        return comfy_io.io.Schema(
            node_id="UseThing",
            inputs=[MyType.Input("thing")],
            outputs=[],
        )


MoreNodes = [MakeThing, UseThing]
